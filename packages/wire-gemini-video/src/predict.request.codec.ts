import { invalid, type VideoImage, type VideoRequestDraft } from '@gateway/core';
import { decodeInlineImage } from './inline-image.codec';
import { onlyAllowed } from './refused-fields';

type Json = Record<string, unknown>;

const TOP_LEVEL = ['instances', 'parameters'] as const;
const INSTANCE_FIELDS = ['prompt', 'image', 'lastFrame', 'referenceImages'] as const;
const PARAMETER_FIELDS = ['durationSeconds', 'aspectRatio', 'resolution', 'generateAudio', 'sampleCount', 'numberOfVideos'] as const;
const REFERENCE_FIELDS = ['image', 'referenceType'] as const;

/** Wire names handed to the core's limits table, so its messages name what the caller sent. */
export const PREDICT_FIELD_NAMES: NonNullable<VideoRequestDraft['fieldNames']> = {
  prompt: 'instances[0].prompt',
  firstFrame: 'instances[0].image',
  lastFrame: 'instances[0].lastFrame',
  referenceImages: 'instances[0].referenceImages',
  durationSeconds: 'parameters.durationSeconds',
  aspectRatio: 'parameters.aspectRatio',
  resolution: 'parameters.resolution',
};

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const present = (v: unknown) => v !== undefined && v !== null;

function referenceImages(value: unknown): VideoImage[] {
  const at = 'instances[0].referenceImages';
  if (!Array.isArray(value)) throw invalid('invalid_reference_images', `${at} must be an array of {image, referenceType} items.`, at);
  return value.map((item, i) => {
    const here = `${at}[${i}]`;
    if (!isObject(item) || !present(item.image))
      throw invalid('invalid_reference_image', `${here} must be an object {image:{bytesBase64Encoded, mimeType}, referenceType}.`, here);
    onlyAllowed(item, here, REFERENCE_FIELDS);
    const type = item.referenceType;
    // "asset" is the documented value; the SDK sends the enum spelling "ASSET".
    if (present(type) && type !== 'asset' && type !== 'ASSET') {
      throw invalid(
        'unsupported_reference_type',
        `${here}.referenceType ${JSON.stringify(type)} is not supported; only "asset" reference images are accepted.`,
        `${here}.referenceType`,
      );
    }
    return decodeInlineImage(item.image, `${here}.image`);
  });
}

function onlyOne(value: unknown, name: string): void {
  if (present(value) && value !== 1) {
    throw invalid(
      'invalid_sample_count',
      `parameters.${name} may only be 1: each task yields one video; got ${JSON.stringify(value)}.`,
      `parameters.${name}`,
    );
  }
}

/**
 * A predictLongRunning body → the core's draft. Format rules live here (one instance, one sample,
 * refused controls, strict inline images); the limits table (durations, resolutions, ratios,
 * input modes) is applied by the use case with PREDICT_FIELD_NAMES.
 */
export function decodePredictRequest(body: Json): VideoRequestDraft {
  onlyAllowed(body, '', TOP_LEVEL);
  const { instances } = body;
  if (!Array.isArray(instances))
    throw invalid('invalid_instances', '"instances" must be an array holding exactly one instance.', 'instances');
  if (instances.length !== 1) {
    throw invalid(
      'invalid_instance_count',
      `"instances" must hold exactly one instance; got ${instances.length}. Send one request per video.`,
      'instances',
    );
  }
  const inst = instances[0];
  if (!isObject(inst)) throw invalid('invalid_instances', 'instances[0] must be an object.', 'instances[0]');
  onlyAllowed(inst, 'instances[0]', INSTANCE_FIELDS);

  const params = body.parameters ?? {};
  if (!isObject(params)) throw invalid('invalid_parameters', '"parameters" must be an object.', 'parameters');
  onlyAllowed(params, 'parameters', PARAMETER_FIELDS);
  onlyOne(params.sampleCount, 'sampleCount');
  onlyOne(params.numberOfVideos, 'numberOfVideos');

  if (present(inst.prompt) && typeof inst.prompt !== 'string')
    throw invalid('invalid_prompt', 'instances[0].prompt must be a string.', 'instances[0].prompt');
  if (present(params.generateAudio) && typeof params.generateAudio !== 'boolean') {
    throw invalid('invalid_generate_audio', 'parameters.generateAudio must be true or false.', 'parameters.generateAudio');
  }

  return {
    prompt: (inst.prompt as string | null) ?? undefined,
    firstFrame: present(inst.image) ? decodeInlineImage(inst.image, 'instances[0].image') : undefined,
    lastFrame: present(inst.lastFrame) ? decodeInlineImage(inst.lastFrame, 'instances[0].lastFrame') : undefined,
    referenceImages: present(inst.referenceImages) ? referenceImages(inst.referenceImages) : undefined,
    // Passed through untyped on purpose: the limits table owns the duration/ratio/resolution messages.
    durationSeconds: (params.durationSeconds ?? undefined) as number | undefined,
    aspectRatio: (params.aspectRatio ?? undefined) as string | undefined,
    resolution: (params.resolution ?? undefined) as string | undefined,
    generateAudio: (params.generateAudio ?? undefined) as boolean | undefined,
    fieldNames: PREDICT_FIELD_NAMES,
  };
}
