import type { FromSchema } from 'json-schema-to-ts';
import { VIDEO_FAMILY_LIMITS } from '@gateway/core';

/** 720p only: the two sizes of the video-endpoint format. */
export const VIDEO_SIZES = ['1280x720', '720x1280'] as const;
export const DEFAULT_VIDEO_SIZE = '1280x720';

const families = Object.values(VIDEO_FAMILY_LIMITS);
const lo = Math.min(...families.map((f) => f.minSeconds));
const hi = Math.max(...families.map((f) => f.maxSeconds));

/**
 * The create body (JSON, or multipart text fields), checked by ajv and served as the OpenAPI description; `x-refusal`
 * names each node's stable code. `seconds` is left to the limits table (its messages name the model's values) and
 * `input_reference` to the codec, which weighs it against the file parts. Null and '' count as absent.
 */
export const createVideoRequestSchema = {
  type: 'object',
  'x-refusal': { required: 'missing_model' },
  required: ['model'],
  additionalProperties: false,
  properties: {
    model: { type: 'string', 'x-refusal': 'missing_model' },
    prompt: { type: 'string', 'x-refusal': 'invalid_prompt' },
    seconds: { description: `Whole seconds (as text in a form); ${lo}–${hi} depending on the model family.` },
    size: {
      enum: VIDEO_SIZES,
      'x-refusal': 'invalid_size',
      default: DEFAULT_VIDEO_SIZE,
      description: '720p only; without it an input_reference of an accepted size chooses.',
    },
    input_reference: {
      description:
        'First frame: an https URL, a data URL, or `{image_url}` (or a file part); its size must equal `size`. `{file_id}` is refused.',
    },
  },
} as const;

export type CreateVideoRequestBody = FromSchema<typeof createVideoRequestSchema, { keepDefaultedPropertiesOptional: true }>;

/** A remix body: only a new, non-blank prompt. */
export const remixVideoRequestSchema = {
  type: 'object',
  'x-refusal': { required: 'missing_prompt' },
  required: ['prompt'],
  additionalProperties: false,
  properties: { prompt: { type: 'string', pattern: '\\S', 'x-refusal': 'missing_prompt' } },
} as const;
