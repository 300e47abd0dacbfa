import type { ErrorShape } from '@gateway/http-kit';

/**
 * Cohere's error body: `{"message": "..."}` and the HTTP status (docs.cohere.com/reference/errors). The cohere SDKs
 * and `@ai-sdk/cohere` read `message`, and nothing else is in it.
 */
export const cohereErrorShape: ErrorShape = {
  name: 'cohere',
  schemaName: 'CohereError',
  schema: {
    type: 'object',
    required: ['message'],
    additionalProperties: false,
    properties: { message: { type: 'string' } },
  },
  render: (err) => ({ status: err.status, body: { message: err.message } }),
};
