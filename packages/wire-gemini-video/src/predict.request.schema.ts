import type { FromSchema } from 'json-schema-to-ts';
import { ASPECT_RATIOS, RESOLUTIONS, VIDEO_DEFAULTS } from '@gateway/core';

/** Veo accepts PNG and JPEG frames; the declared type must be what the bytes really are. */
export const INLINE_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

/**
 * The predictLongRunning body, checked by ajv and served as the OpenAPI description. `x-refusal` names the stable code
 * a failing node answers with (per keyword, or one code for the node); unknown fields are refused by
 * refused-fields.ts. Duration, ratio and resolution are left to the limits table, whose messages name the model's
 * own values, so only their defaults and the values they can take are described here. Nulls are removed before the
 * check (a null field counts as absent).
 */
const inlineImage = {
  type: 'object',
  'x-refusal': 'invalid_image',
  required: ['bytesBase64Encoded', 'mimeType'],
  additionalProperties: false,
  properties: {
    bytesBase64Encoded: { type: 'string', contentEncoding: 'base64', 'x-refusal': 'invalid_image' },
    mimeType: { type: 'string', enum: INLINE_IMAGE_TYPES, 'x-refusal': 'unsupported_image_mime_type' },
  },
} as const;

export const predictRequestSchema = {
  type: 'object',
  'x-refusal': { required: 'invalid_instances' },
  required: ['instances'],
  additionalProperties: false,
  properties: {
    instances: {
      type: 'array',
      'x-refusal': { type: 'invalid_instances', minItems: 'invalid_instance_count', maxItems: 'invalid_instance_count' },
      minItems: 1,
      maxItems: 1,
      items: {
        type: 'object',
        'x-refusal': 'invalid_instances',
        additionalProperties: false,
        properties: {
          prompt: { type: 'string', 'x-refusal': 'invalid_prompt' },
          image: inlineImage,
          lastFrame: { ...inlineImage, description: 'Needs `image`.' },
          referenceImages: {
            type: 'array',
            'x-refusal': 'invalid_reference_images',
            description: 'Not combined with image or lastFrame; the model family sets the maximum.',
            items: {
              type: 'object',
              'x-refusal': 'invalid_reference_image',
              required: ['image'],
              additionalProperties: false,
              // "asset" is the documented value; the SDK sends the enum spelling "ASSET".
              properties: { image: inlineImage, referenceType: { enum: ['asset', 'ASSET'], 'x-refusal': 'unsupported_reference_type' } },
            },
          },
        },
      },
    },
    parameters: {
      type: 'object',
      'x-refusal': 'invalid_parameters',
      additionalProperties: false,
      properties: {
        durationSeconds: { description: 'Whole seconds within the model family’s range.', default: VIDEO_DEFAULTS.durationSeconds },
        aspectRatio: { description: `One of ${ASPECT_RATIOS.join(', ')} the model offers.`, default: VIDEO_DEFAULTS.aspectRatio },
        resolution: { description: `One of ${RESOLUTIONS.join(', ')} the model offers.`, default: VIDEO_DEFAULTS.resolution },
        generateAudio: { type: 'boolean', 'x-refusal': 'invalid_generate_audio', default: VIDEO_DEFAULTS.generateAudio },
        sampleCount: { const: 1, 'x-refusal': 'invalid_sample_count' },
        numberOfVideos: { const: 1, 'x-refusal': 'invalid_sample_count' },
      },
    },
  },
} as const;

/** A predict body as the schema admits it. */
export type PredictRequestBody = FromSchema<typeof predictRequestSchema, { keepDefaultedPropertiesOptional: true }>;
export type InlineImage = FromSchema<typeof inlineImage>;
