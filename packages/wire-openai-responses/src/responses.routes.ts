import type { RouteDoc } from '@gateway/http-kit';
import { compactRequestSchema, responsesRequestSchema } from './responses.request.schema';

const response = {
  type: 'object',
  required: ['id', 'object', 'created_at', 'status', 'model', 'output'],
  properties: {
    id: { type: 'string' },
    object: { const: 'response' },
    created_at: { type: 'integer' },
    status: { enum: ['completed', 'failed', 'in_progress', 'incomplete'] },
    model: { type: 'string' },
    output: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } },
    usage: { type: ['object', 'null'] },
  },
};

const compaction = {
  type: 'object',
  required: ['id', 'object', 'created_at', 'output'],
  properties: {
    id: { type: 'string' },
    object: { const: 'response.compaction' },
    created_at: { type: 'integer' },
    output: { type: 'array', items: { type: 'object', properties: { type: { const: 'compaction' }, id: { type: 'string' }, encrypted_content: { type: 'string' } } } },
    usage: { type: 'object' },
    error: { type: ['object', 'null'] },
  },
};

const id = { name: 'id', in: 'path', required: true, description: 'A stored response id (`resp_…`) of the key\'s account.', schema: { type: 'string' } } as const;
const auth = { kind: 'api-key' } as const;

export const responsesRoutes: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1/responses',
    summary: 'Create a response',
    description: 'With `"stream": true` the answer is named server-sent events (`response.created` … `response.completed`). Stored unless `"store": false`.',
    format: 'openai-responses',
    auth,
    body: { content: { 'application/json': responsesRequestSchema } },
    response: { description: 'A `response`, or its events when streaming.', content: { 'application/json': response, 'text/event-stream': { type: 'string' } } },
    errors: 'openai',
  },
  {
    method: 'post',
    path: '/v1/responses/compact',
    summary: 'Compact a conversation',
    description: 'The history (previous response plus input) becomes one sealed compaction item to pass as input later.',
    format: 'openai-responses',
    auth,
    body: { content: { 'application/json': compactRequestSchema } },
    response: { description: 'A `response.compaction`.', content: { 'application/json': compaction } },
    errors: 'openai',
  },
  {
    method: 'get',
    path: '/v1/responses/{id}',
    summary: 'Read a stored response',
    format: 'openai-responses',
    auth,
    params: [id],
    response: { description: 'The stored `response`.', content: { 'application/json': response } },
    errors: 'openai',
  },
  {
    method: 'delete',
    path: '/v1/responses/{id}',
    summary: 'Delete a stored response',
    format: 'openai-responses',
    auth,
    params: [id],
    response: {
      description: 'The deletion receipt.',
      content: { 'application/json': { type: 'object', required: ['id', 'deleted'], properties: { id: { type: 'string' }, object: { const: 'response' }, deleted: { const: true } } } },
    },
    errors: 'openai',
  },
];
