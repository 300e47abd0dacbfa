import { invalid, type GatewayError } from '@gateway/core';
import type { SchemaFailure } from '@gateway/http-kit';
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

function codeOf(failure: SchemaFailure): string | undefined {
  const rule = failure.schema['x-refusal'];
  if (typeof rule === 'string') return rule;
  if (rule && typeof rule === 'object') return (rule as Record<string, string>)[failure.keyword];
  return undefined;
}

/**
 * The one refusal for a predict body, in the order a reader checks it: an unknown or unsupported field first (each
 * named control has its own code), then the first failure whose schema node names a code.
 */
export function predictRefusal(failures: SchemaFailure[]): GatewayError | undefined {
  const unknown = failures.find((f) => f.keyword === 'additionalProperties');
  if (unknown) {
    const properties = Object.keys((unknown.schema.properties ?? {}) as object);
    return fieldRefusal(String(unknown.params.additionalProperty), unknown.param, properties);
  }
  for (const failure of failures) {
    const code = codeOf(failure);
    const word = code && WORDING[code];
    if (code && word) {
      const at = failure.keyword === 'required' ? failure.param : failure.at;
      return invalid(code, word(at, failure.value), at || undefined);
    }
  }
  return undefined;
}
