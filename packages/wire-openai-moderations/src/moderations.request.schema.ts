import type { FromSchema } from 'json-schema-to-ts';

const textPart = {
  type: 'object',
  required: ['type', 'text'],
  additionalProperties: false,
  properties: { type: { const: 'text' }, text: { type: 'string' } },
} as const;

const imagePart = {
  type: 'object',
  required: ['type', 'image_url'],
  additionalProperties: false,
  properties: {
    type: { const: 'image_url' },
    image_url: { type: 'object', required: ['url'], additionalProperties: false, properties: { url: { type: 'string' } } },
  },
} as const;

/**
 * OpenAI's CreateModerationRequest (2.3.0): `input` is a string, strings (one result each), or the text and image
 * parts of one input (one result). `model` defaults to `omni-moderation-latest`. Unknown fields are refused.
 */
export const moderationRequestSchema = {
  type: 'object',
  required: ['input'],
  additionalProperties: false,
  properties: {
    model: { type: 'string', minLength: 1 },
    input: {
      anyOf: [
        { type: 'string' },
        { type: 'array', minItems: 1, items: { type: 'string' } },
        { type: 'array', minItems: 1, items: { anyOf: [textPart, imagePart] } },
      ],
    },
  },
} as const;

export type ModerationRequestBody = FromSchema<typeof moderationRequestSchema>;

/** OpenAI's default when the request names no model. */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';
