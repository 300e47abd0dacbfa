import type { FromSchema } from 'json-schema-to-ts';

const tokens = { type: 'array', items: { type: 'integer', minimum: 0 } } as const;

/**
 * OpenAI's CreateEmbeddingRequest (openai-openapi 2.3.0): unknown fields refused. `input` is a string, strings, one
 * token array or token arrays; how many and how long is the core's check (EMBEDDING_LIMITS), so its 400 names the
 * limit. `null` counts as "not given" (SDKs pass nulls through).
 */
export const embeddingsRequestSchema = {
  type: 'object',
  required: ['model', 'input'],
  additionalProperties: false,
  properties: {
    model: { type: 'string' },
    input: {
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, tokens, { type: 'array', items: tokens }],
    },
    encoding_format: { enum: ['float', 'base64', null] },
    dimensions: { type: ['integer', 'null'], minimum: 1 },
    user: { type: ['string', 'null'] },
  },
} as const;

export type EmbeddingsRequestBody = FromSchema<typeof embeddingsRequestSchema>;
