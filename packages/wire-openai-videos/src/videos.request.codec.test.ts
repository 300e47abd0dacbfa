import { checkBody } from '@gateway/http-kit';
import { createVideoBody, decodeCreateVideo as decodeChecked, type UploadedPart, type UrlLoader } from './videos.request.codec';
import { pngHeader } from '@gateway/testkit';

// the route's check, then the decoder
const decodeCreateVideo = async (raw: unknown, files: UploadedPart[], load: UrlLoader) =>
  decodeChecked(await checkBody(createVideoBody, raw), files, load);
const dataUrl = (b: Buffer, type = 'image/png') => `data:${type};base64,${b.toString('base64')}`;
const part = (b: Buffer, fieldname = 'input_reference'): UploadedPart => ({ fieldname, mimetype: 'image/png', buffer: b });
// Tests never leave the machine: URLs other than data: are answered by this stub.
const loadUrl: UrlLoader = async (url) => {
  if (url.startsWith('data:')) {
    const [, type, b64] = /^data:([^;]+);base64,(.*)$/.exec(url)!;
    return { data: Buffer.from(b64!, 'base64'), contentType: type };
  }
  return { data: pngHeader(720, 1280) };
};
const codeOf = (body: Record<string, unknown>, files: UploadedPart[] = []) =>
  decodeCreateVideo(body, files, loadUrl).then(
    () => 'accepted',
    (e: { code: string }) => e.code,
  );

describe('decodeCreateVideo', () => {
  it('text only: 720p at the ratio of size, seconds as a number', async () => {
    const c = await decodeCreateVideo({ model: 'm', prompt: 'a cat', seconds: '8', size: '720x1280' }, [], loadUrl);
    expect(c).toMatchObject({ modelId: 'm', draft: { prompt: 'a cat', durationSeconds: 8, resolution: '720p', aspectRatio: '9:16' } });
  });

  it('defaults to 1280x720 (16:9) and leaves seconds to the limits table default', async () => {
    const c = await decodeCreateVideo({ model: 'm', prompt: 'p' }, [], loadUrl);
    expect(c.draft).toMatchObject({ aspectRatio: '16:9', durationSeconds: undefined });
  });

  it('takes the first frame from a file part, with adaptive ratio', async () => {
    const c = await decodeCreateVideo({ model: 'm', prompt: 'p', size: '1280x720' }, [part(pngHeader(1280, 720))], loadUrl);
    expect(c.draft).toMatchObject({ aspectRatio: 'adaptive', firstFrame: { width: 1280, height: 720, mediaType: 'image/png' } });
  });

  it.each([
    ['a data URL string', { input_reference: dataUrl(pngHeader(1280, 720)) }],
    ['{image_url} (the SDK text part input_reference[image_url])', { input_reference: { image_url: dataUrl(pngHeader(1280, 720)) } }],
  ])('takes the first frame from %s', async (_n, extra) => {
    const c = await decodeCreateVideo({ model: 'm', prompt: 'p', size: '1280x720', ...extra }, [], loadUrl);
    expect(c.draft.firstFrame).toMatchObject({ width: 1280, height: 720 });
  });

  it('without size, an image of an accepted size chooses it', async () => {
    const c = await decodeCreateVideo({ model: 'm', input_reference: 'https://img.example/portrait.png' }, [], loadUrl);
    expect(c.draft.firstFrame).toMatchObject({ width: 720, height: 1280 });
  });

  it.each([
    ['missing model', { prompt: 'p' }, [], 'missing_model'],
    ['unknown field', { model: 'm', prompt: 'p', quality: 'hd' }, [], 'unsupported_field'],
    ['prompt not a string', { model: 'm', prompt: 5 }, [], 'invalid_prompt'],
    ['1080p size', { model: 'm', prompt: 'p', size: '1920x1080' }, [], 'invalid_size'],
    ['sora size 1792x1024', { model: 'm', prompt: 'p', size: '1792x1024' }, [], 'invalid_size'],
    [
      'image not matching size',
      { model: 'm', prompt: 'p', size: '720x1280' },
      [part(pngHeader(1280, 720))],
      'input_reference_size_mismatch',
    ],
    ['image of another size, no size', { model: 'm', prompt: 'p' }, [part(pngHeader(640, 480))], 'input_reference_size_mismatch'],
    ['two file parts', { model: 'm', prompt: 'p' }, [part(pngHeader(1280, 720)), part(pngHeader(1280, 720))], 'too_many_input_references'],
    [
      'file and URL',
      { model: 'm', prompt: 'p', input_reference: dataUrl(pngHeader(1280, 720)) },
      [part(pngHeader(1280, 720))],
      'too_many_input_references',
    ],
    ['another file field', { model: 'm', prompt: 'p' }, [part(pngHeader(1280, 720), 'image')], 'unsupported_field'],
    ['file_id reference', { model: 'm', prompt: 'p', input_reference: { file_id: 'file-1' } }, [], 'unsupported_input_reference_file_id'],
    ['a number as reference', { model: 'm', prompt: 'p', input_reference: 7 }, [], 'invalid_input_reference'],
    ['bytes that are no image', { model: 'm', prompt: 'p' }, [part(Buffer.from('not an image at all'))], 'invalid_image_data'],
    [
      'data URL type lie',
      { model: 'm', prompt: 'p', input_reference: dataUrl(pngHeader(1280, 720), 'image/jpeg') },
      [],
      'image_mime_mismatch',
    ],
  ] as const)('%s → %s', async (_n, body, files, code) => {
    expect(await codeOf(body as Record<string, unknown>, files as unknown as UploadedPart[])).toBe(code);
  });

  it('passes a non-numeric seconds to the limits table untouched (it refuses it there)', async () => {
    const c = await decodeCreateVideo({ model: 'm', prompt: 'p', seconds: 'eight' }, [], loadUrl);
    expect(c.draft.durationSeconds).toBe('eight');
  });
});
