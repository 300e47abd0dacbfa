import type { RouteDoc } from '@gateway/http-kit';
import { chatRequestSchema } from './chat.request.schema';

/** Loose: enough to read the documented shape, not a contract on every field. */
const chatCompletion = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices'],
  properties: {
    id: { type: 'string' },
    object: { const: 'chat.completion' },
    created: { type: 'integer' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      items: {
        type: 'object',
        properties: { index: { type: 'integer' }, message: { type: 'object' }, finish_reason: { type: ['string', 'null'] } },
      },
    },
    usage: { type: 'object' },
  },
};

export const chatRoutes: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1/chat/completions',
    summary: 'Create a chat completion',
    description: 'With `"stream": true` the answer is server-sent `chat.completion.chunk` events ending with `data: [DONE]`.',
    format: 'openai-chat',
    auth: { kind: 'api-key', role: 'member' },
    body: { content: { 'application/json': chatRequestSchema } },
    response: {
      description: 'A `chat.completion`, or its chunks as server-sent events when streaming.',
      content: { 'application/json': chatCompletion, 'text/event-stream': { type: 'string' } },
    },
    errors: 'openai',
  },
];
