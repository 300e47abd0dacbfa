const result = {
  type: 'object',
  required: ['index', 'relevance_score'],
  properties: {
    index: { type: 'integer' },
    relevance_score: { type: 'number' },
    document: { type: 'object', description: 'Only with `return_documents: true` (`/v1/rerank`); `{text}` for a text document.' },
  },
};

const rerankResponse = {
  type: 'object',
  required: ['id', 'results', 'meta'],
  properties: {
    id: { type: 'string' },
    model: { type: 'string' },
    results: { type: 'array', items: result },
    meta: {
      type: 'object',
      properties: {
        api_version: { type: 'object', properties: { version: { type: 'string' } } },
        billed_units: { type: 'object', properties: { search_units: { type: 'integer' } } },
        tokens: { type: 'object', properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' } } },
      },
    },
    usage: { type: 'object', properties: { prompt_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } } },
  },
};

export const rerankResult = {
  description: 'The documents best first: `results[{index, relevance_score, document?}]`, `meta.billed_units.search_units` and `usage`.',
  content: { 'application/json': rerankResponse },
};
