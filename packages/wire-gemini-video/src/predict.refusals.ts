import { refusalsFromSchema } from '@gateway/http-kit';
import { INLINE_IMAGE_TYPES } from './predict.request.schema';
import { fieldRefusal } from './refused-fields';

/** How each `x-refusal` code of predict.request.schema.ts reads, given where it failed and the value found there. */
const WORDING: Readonly<Record<string, (at: string, value: unknown) => string>> = {
  invalid_instances: (at) =>
    at.startsWith('instances[') ? `${at} must be an object.` : '"instances" must be an array holding exactly one instance.',
  invalid_instance_count: (_at, value) =>
    `"instances" must hold exactly one instance; got ${Array.isArray(value) ? value.length : 0}. Send one request per video.`,
  invalid_parameters: () => '"parameters" must be an object.',
  invalid_sample_count: (at, value) => `${at} may only be 1: each task yields one video; got ${JSON.stringify(value)}.`,
  invalid_prompt: (at) => `${at} must be a string.`,
  invalid_generate_audio: (at) => `${at} must be true or false.`,
  invalid_image: (at) => `${at} must be an object with "bytesBase64Encoded" (a base64 string) and "mimeType".`,
  unsupported_image_mime_type: (at, value) => `${at} ${JSON.stringify(value)} is not supported; use ${INLINE_IMAGE_TYPES.join(' or ')}.`,
  invalid_reference_images: (at) => `${at} must be an array of {image, referenceType} items.`,
  invalid_reference_image: (at) => `${at} must be an object {image:{bytesBase64Encoded, mimeType}, referenceType}.`,
  unsupported_reference_type: (at, value) => `${at} ${JSON.stringify(value)} is not supported; only "asset" reference images are accepted.`,
};

/** Unknown fields first (each named Veo control has its own code), then the schema's own codes. */
export const predictRefusal = refusalsFromSchema(WORDING, fieldRefusal);
