import type { FromSchema } from 'json-schema-to-ts';

/**
 * Shapes of the two image requests. Types only: what each model allows (sizes, qualities, formats, ...) is
 * checked by the core against its capabilities, so the allowed values live in one place. Unknown fields are
 * refused, as OpenAI does. `null` counts as "not given" (SDKs pass nulls through).
 */
const common = {
  model: { type: 'string' },
  prompt: { type: 'string' },
  n: { type: ['integer', 'null'] },
  size: { type: ['string', 'null'] },
  quality: { type: ['string', 'null'] },
  response_format: { enum: ['url', 'b64_json', null] },
  background: { type: ['string', 'null'] },
  output_format: { type: ['string', 'null'] },
  output_compression: { type: ['integer', 'null'] },
  partial_images: { type: ['integer', 'null'] },
  stream: { type: ['boolean', 'null'] },
  moderation: { enum: ['auto', 'low', null] },
  user: { type: 'string' },
} as const;

export const generationRequestSchema = {
  type: 'object',
  required: ['model', 'prompt'],
  additionalProperties: false,
  properties: { ...common, style: { type: ['string', 'null'] } },
} as const;

/** An image given as text: an https URL, a data URL or bare base64; or OpenAI's `{image_url}` object. */
const imageRef = {
  anyOf: [
    { type: 'string' },
    { type: 'object', required: ['image_url'], additionalProperties: false, properties: { image_url: { type: 'string' } } },
    { type: 'object', required: ['file_id'], additionalProperties: false, properties: { file_id: { type: 'string' } } },
  ],
} as const;

export const editRequestSchema = {
  type: 'object',
  required: ['model', 'prompt'],
  additionalProperties: false,
  properties: {
    ...common,
    image: { anyOf: [imageRef, { type: 'array', items: imageRef }] },
    images: { type: 'array', items: imageRef },
    mask: imageRef,
    input_fidelity: { enum: ['high', 'low', null] },
  },
} as const;

export type GenerationRequestBody = FromSchema<typeof generationRequestSchema>;
export type EditRequestBody = FromSchema<typeof editRequestSchema>;
/** An image given as text (see `imageRef`). */
export type ImageRef = FromSchema<typeof imageRef>;
