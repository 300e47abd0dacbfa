import type { FromSchema } from 'json-schema-to-ts';

/** A Content of text parts: what Gemini embeds as one vector. */
const content = {
  type: 'object',
  required: ['parts'],
  additionalProperties: false,
  properties: {
    role: { type: 'string' },
    parts: { type: 'array', items: { type: 'object', additionalProperties: true, properties: { text: { type: 'string' } } } },
  },
} as const;

const embedOptions = {
  model: { type: 'string' },
  content,
  taskType: {
    enum: [
      'TASK_TYPE_UNSPECIFIED',
      'RETRIEVAL_QUERY',
      'RETRIEVAL_DOCUMENT',
      'SEMANTIC_SIMILARITY',
      'CLASSIFICATION',
      'CLUSTERING',
      'QUESTION_ANSWERING',
      'FACT_VERIFICATION',
      'CODE_RETRIEVAL_QUERY',
    ],
  },
  title: { type: 'string' },
  outputDimensionality: { type: 'integer', minimum: 1 },
} as const;

/** Gemini's EmbedContentRequest (`models/{model}:embedContent`). */
export const embedContentRequestSchema = {
  type: 'object',
  required: ['content'],
  additionalProperties: false,
  properties: embedOptions,
} as const;

/** Gemini's BatchEmbedContentsRequest: what `@google/genai`'s `models.embedContent` always sends. */
export const batchEmbedContentsRequestSchema = {
  type: 'object',
  required: ['requests'],
  additionalProperties: false,
  properties: { requests: { type: 'array', items: embedContentRequestSchema } },
} as const;

export type EmbedContentRequestBody = FromSchema<typeof embedContentRequestSchema>;
export type BatchEmbedContentsRequestBody = FromSchema<typeof batchEmbedContentsRequestSchema>;
