import type { FromSchema } from 'json-schema-to-ts';

/**
 * The two rerank requests. Cohere v2 takes text documents only (clients stringify objects themselves) and refuses
 * fields it does not know; `/v1/rerank` also takes what Jina and LiteLLM clients send: document objects
 * (`{text}`, or any object read through `rank_fields`) and `return_documents`. Limits (documents per request,
 * top_n) are the core's, checked before any upstream. `null` counts as "not given" (SDKs pass nulls through).
 */
const common = {
  model: { type: 'string', minLength: 1 },
  query: { type: 'string' },
  top_n: { type: ['integer', 'null'] },
  max_tokens_per_doc: { type: ['integer', 'null'] },
  priority: { type: ['integer', 'null'] },
} as const;

export const cohereRerankRequestSchema = {
  type: 'object',
  required: ['model', 'query', 'documents'],
  additionalProperties: false,
  properties: { ...common, documents: { type: 'array', items: { type: 'string' } } },
} as const;

export const rerankRequestSchema = {
  type: 'object',
  required: ['model', 'query', 'documents'],
  additionalProperties: false,
  properties: {
    ...common,
    documents: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object' }] } },
    return_documents: { type: ['boolean', 'null'] },
    /** which fields of an object document are ranked (LiteLLM, Cohere v1); default `text` */
    rank_fields: { type: ['array', 'null'], items: { type: 'string' } },
    /** Cohere v1 and LiteLLM clients send it; documents are not chunked, so it changes nothing */
    max_chunks_per_doc: { type: ['integer', 'null'] },
  },
} as const;

export type CohereRerankRequestBody = FromSchema<typeof cohereRerankRequestSchema>;
export type RerankRequestBody = FromSchema<typeof rerankRequestSchema>;
