import type { RouteDoc } from '@gateway/http-kit';
import { countTokensRequestSchema, generateContentRequestSchema } from './generate-content.request.schema';

const generateContentResponse = {
  type: 'object',
  properties: {
    candidates: {
      type: 'array',
      items: { type: 'object', properties: { content: { type: 'object' }, finishReason: { type: 'string' }, index: { type: 'integer' } } },
    },
    usageMetadata: { type: 'object' },
    modelVersion: { type: 'string' },
    responseId: { type: 'string' },
  },
};

const model = {
  name: 'model',
  in: 'path',
  required: true,
  description: "A text model id in the key's group, without the `models/` prefix.",
  schema: { type: 'string' },
} as const;
// The SDK sends x-goog-api-key; a bearer token works too.
const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-goog-api-key'] } as const;

export const generateContentRoutes: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1beta/models/{model}:generateContent',
    summary: 'Generate content',
    format: 'gemini-content',
    auth,
    params: [model],
    body: { content: { 'application/json': generateContentRequestSchema } },
    response: { description: 'One `GenerateContentResponse`.', content: { 'application/json': generateContentResponse } },
    errors: 'google',
  },
  {
    method: 'post',
    path: '/v1beta/models/{model}:streamGenerateContent',
    summary: 'Generate content as a stream',
    description:
      'With `?alt=sse`: bare `data:` events, one `GenerateContentResponse` each. Without it: one JSON array of those chunks, sent when generation ends.',
    format: 'gemini-content',
    auth,
    params: [model, { name: 'alt', in: 'query', description: '`sse` for server-sent events.', schema: { enum: ['sse'] } }],
    body: { content: { 'application/json': generateContentRequestSchema } },
    response: {
      description: 'Chunks as server-sent events (`alt=sse`) or as one JSON array.',
      content: { 'text/event-stream': { type: 'string' }, 'application/json': { type: 'array', items: generateContentResponse } },
    },
    errors: 'google',
  },
  {
    method: 'post',
    path: '/v1beta/models/{model}:countTokens',
    summary: 'Count the input tokens of a request',
    description:
      "Either `contents` or a whole `generateContentRequest`. Counted by the model's upstream when it can count (Google, the simulator); otherwise estimated, and the `x-gateway-token-count: estimated` header says so.",
    format: 'gemini-content',
    auth,
    params: [model],
    body: { content: { 'application/json': countTokensRequestSchema } },
    response: {
      description: 'The count.',
      content: {
        'application/json': { type: 'object', required: ['totalTokens'], properties: { totalTokens: { type: 'integer', minimum: 0 } } },
      },
    },
    errors: 'google',
  },
];
