import type { RouteDoc } from '@gateway/http-kit';
import { countTokensRequestSchema, messagesRequestSchema } from './messages.request.schema';

const message = {
  type: 'object',
  required: ['id', 'type', 'role', 'content', 'model'],
  properties: {
    id: { type: 'string' },
    type: { const: 'message' },
    role: { const: 'assistant' },
    content: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } },
    model: { type: 'string' },
    stop_reason: { type: ['string', 'null'] },
    usage: { type: 'object' },
  },
};

const headers = [
  {
    name: 'anthropic-version',
    in: 'header',
    required: true,
    description: 'Any real calendar date `YYYY-MM-DD`; the gateway serves one shape.',
    schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  },
  { name: 'anthropic-beta', in: 'header', description: 'Accepted and ignored.', schema: { type: 'string' } },
  {
    name: 'beta',
    in: 'query',
    description: 'Accepted and ignored (`?beta=true` is sent by the SDK for beta calls).',
    schema: { type: 'string' },
  },
] as const;
// 1.x SDKs send a bearer token; 0.x SDKs and curl users send x-api-key.
const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-api-key'] } as const;

export const messagesRoutes: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1/messages',
    summary: 'Create a message',
    description: 'With `"stream": true` the answer is named server-sent events (`message_start` … `message_stop`).',
    format: 'anthropic-messages',
    auth,
    params: [...headers],
    body: { content: { 'application/json': messagesRequestSchema } },
    response: {
      description: 'A `message`, or its events as server-sent events when streaming.',
      content: { 'application/json': message, 'text/event-stream': { type: 'string' } },
    },
    errors: 'anthropic',
  },
  {
    method: 'post',
    path: '/v1/messages/count_tokens',
    summary: 'Count the input tokens of a message',
    description:
      "Counted by the model's upstream when it can count (Anthropic, Google, the simulator); otherwise estimated, and the `x-gateway-token-count: estimated` header says so.",
    format: 'anthropic-messages',
    auth,
    params: [...headers],
    body: { content: { 'application/json': countTokensRequestSchema } },
    response: {
      description: 'The count.',
      content: {
        'application/json': { type: 'object', required: ['input_tokens'], properties: { input_tokens: { type: 'integer', minimum: 0 } } },
      },
    },
    errors: 'anthropic',
  },
];
