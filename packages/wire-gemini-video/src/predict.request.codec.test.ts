import type { Request } from 'express';
import { decodePredictRequest as decodeChecked, predictBody, PREDICT_FIELD_NAMES } from './predict.request.codec';
import type { PredictRequestBody } from './predict.request.schema';
import { jpegHeader, pngHeader } from '@gateway/testkit';

const png = { bytesBase64Encoded: pngHeader(1280, 720).toString('base64'), mimeType: 'image/png' };
const jpeg = { bytesBase64Encoded: jpegHeader(640, 480).toString('base64'), mimeType: 'image/jpeg' };

// the route's check (synchronous for this body), then the decoder
const decodePredictRequest = (raw: unknown) =>
  decodeChecked(predictBody.check(raw, {} as Request, { deps: undefined }) as PredictRequestBody);

const codeOf = (body: unknown) => {
  try {
    decodePredictRequest(body as Record<string, unknown>);
    return 'accepted';
  } catch (e) {
    return (e as { code: string }).code;
  }
};
const one = (instance: Record<string, unknown>, parameters?: Record<string, unknown>) => ({
  instances: [instance],
  ...(parameters ? { parameters } : {}),
});

describe('decodePredictRequest', () => {
  it('decodes prompt, frames, parameters and wire field names', () => {
    const d = decodePredictRequest(
      one(
        { prompt: 'a cat', image: png, lastFrame: jpeg },
        { durationSeconds: 8, aspectRatio: 'adaptive', resolution: '720p', generateAudio: false, sampleCount: 1 },
      ),
    );
    expect(d).toMatchObject({
      prompt: 'a cat',
      durationSeconds: 8,
      aspectRatio: 'adaptive',
      resolution: '720p',
      generateAudio: false,
      fieldNames: PREDICT_FIELD_NAMES,
    });
    expect(d.firstFrame).toMatchObject({ mediaType: 'image/png', width: 1280, height: 720 });
    expect(d.lastFrame).toMatchObject({ mediaType: 'image/jpeg', width: 640, height: 480 });
  });

  it('decodes reference images with referenceType asset or ASSET (the SDK spelling), or none', () => {
    const d = decodePredictRequest(
      one({
        prompt: 'p',
        referenceImages: [{ image: png, referenceType: 'ASSET' }, { image: jpeg, referenceType: 'asset' }, { image: png }],
      }),
    );
    expect(d.referenceImages).toHaveLength(3);
  });

  it.each([
    ['no instances', { parameters: {} }, 'invalid_instances'],
    ['two instances', { instances: [{ prompt: 'a' }, { prompt: 'b' }] }, 'invalid_instance_count'],
    ['zero instances', { instances: [] }, 'invalid_instance_count'],
    ['instance not an object', { instances: ['a cat'] }, 'invalid_instances'],
    ['parameters not an object', { instances: [{ prompt: 'p' }], parameters: [] }, 'invalid_parameters'],
    ['sampleCount 2', one({ prompt: 'p' }, { sampleCount: 2 }), 'invalid_sample_count'],
    ['numberOfVideos 4', one({ prompt: 'p' }, { numberOfVideos: 4 }), 'invalid_sample_count'],
    ['seed', one({ prompt: 'p' }, { seed: 7 }), 'unsupported_seed'],
    ['negativePrompt', one({ prompt: 'p' }, { negativePrompt: 'dogs' }), 'unsupported_negative_prompt'],
    ['personGeneration', one({ prompt: 'p' }, { personGeneration: 'allow_adult' }), 'unsupported_person_generation'],
    ['enhancePrompt', one({ prompt: 'p' }, { enhancePrompt: true }), 'unsupported_enhance_prompt'],
    ['video input', one({ prompt: 'p', video: { uri: 'https://x/v.mp4' } }), 'unsupported_video_input'],
    ['mask', one({ prompt: 'p', mask: { image: png } }), 'unsupported_mask'],
    ['gs:// image', one({ prompt: 'p', image: { gcsUri: 'gs://b/i.png', mimeType: 'image/png' } }), 'unsupported_gcs_uri'],
    ['gs:// output', one({ prompt: 'p' }, { storageUri: 'gs://b/out/' }), 'unsupported_gcs_uri'],
    ['unlisted parameter', one({ prompt: 'p' }, { fps: 24 }), 'unsupported_field'],
    ['unlisted top-level field', { ...one({ prompt: 'p' }), webhookConfig: {} }, 'unsupported_field'],
    ['prompt not a string', one({ prompt: 42 }), 'invalid_prompt'],
    ['generateAudio not boolean', one({ prompt: 'p' }, { generateAudio: 'yes' }), 'invalid_generate_audio'],
    ['image without mimeType', one({ image: { bytesBase64Encoded: png.bytesBase64Encoded } }), 'invalid_image'],
    ['image as a string', one({ image: png.bytesBase64Encoded }), 'invalid_image'],
    ['webp mime type', one({ image: { ...png, mimeType: 'image/webp' } }), 'unsupported_image_mime_type'],
    [
      'data URL prefix',
      one({ image: { ...png, bytesBase64Encoded: `data:image/png;base64,${png.bytesBase64Encoded}` } }),
      'invalid_image_base64',
    ],
    [
      'bytes that are no image',
      one({ image: { bytesBase64Encoded: Buffer.from('hello world!').toString('base64'), mimeType: 'image/png' } }),
      'invalid_image_data',
    ],
    ['PNG declared as JPEG', one({ image: { ...png, mimeType: 'image/jpeg' } }), 'image_mime_mismatch'],
    ['referenceImages not an array', one({ prompt: 'p', referenceImages: png }), 'invalid_reference_images'],
    ['reference item without image', one({ prompt: 'p', referenceImages: [{ referenceType: 'asset' }] }), 'invalid_reference_image'],
    ['STYLE reference', one({ prompt: 'p', referenceImages: [{ image: png, referenceType: 'STYLE' }] }), 'unsupported_reference_type'],
  ])('%s → %s', (_name, body, code) => expect(codeOf(body)).toBe(code));

  it('treats null as absent, as JSON encoders of optional fields do', () => {
    expect(codeOf(one({ prompt: 'p', image: null }, { seed: null, durationSeconds: null }))).toBe('accepted');
  });

  it('names the field at fault', () => {
    try {
      decodePredictRequest(one({ prompt: 'p', referenceImages: [{ image: png }, { image: { ...png, mimeType: 'image/jpeg' } }] }));
    } catch (e) {
      expect(e).toMatchObject({ param: 'instances[0].referenceImages[1].image.mimeType', reason: 'invalid_request' });
      return;
    }
    throw new Error('expected a refusal');
  });
});
