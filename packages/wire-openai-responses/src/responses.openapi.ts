import { openAiErrorShape, type RouteDoc } from '@gateway/http-kit';
import { INPUT_ITEMS_LIMITS } from './responses.input-items';
import { compactRequestSchema, inputTokensRequestSchema, responsesRequestSchema } from './responses.request.schema';

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
    output: {
      type: 'array',
      items: {
        type: 'object',
        properties: { type: { const: 'compaction' }, id: { type: 'string' }, encrypted_content: { type: 'string' } },
      },
    },
    usage: { type: 'object' },
    error: { type: ['object', 'null'] },
  },
};

const inputItems = {
  type: 'object',
  required: ['object', 'data', 'first_id', 'last_id', 'has_more'],
  properties: {
    object: { const: 'list' },
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type'],
        properties: { id: { type: 'string' }, type: { enum: ['message', 'function_call', 'function_call_output', 'reasoning'] } },
      },
    },
    first_id: { type: ['string', 'null'] },
    last_id: { type: ['string', 'null'] },
    has_more: { type: 'boolean' },
  },
};

const id = {
  name: 'id',
  in: 'path',
  required: true,
  description: "A stored response id (`resp_…`) of the key's account.",
  schema: { type: 'string' },
} as const;
const auth = { kind: 'api-key', role: 'member' } as const;

export const responsesRoutes: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1/responses',
    summary: 'Create a response',
    description:
      'With `"stream": true` the answer is named server-sent events (`response.created` … `response.completed`). Stored unless `"store": false`.',
    format: 'openai-responses',
    auth,
    body: { content: { 'application/json': responsesRequestSchema } },
    response: {
      description: 'A `response`, or its events when streaming.',
      content: { 'application/json': response, 'text/event-stream': { type: 'string' } },
    },
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
    method: 'post',
    path: '/v1/responses/input_tokens',
    summary: 'Count the input tokens of a response request',
    description:
      "A create body (with `previous_response_id`, its history counts too); nothing runs and nothing is stored. Counted by the model's upstream when it can count (Anthropic, Google, the simulator); otherwise estimated, and the `x-gateway-token-count: estimated` header says so.",
    format: 'openai-responses',
    auth,
    body: { content: { 'application/json': inputTokensRequestSchema } },
    response: {
      description: 'The count.',
      content: {
        'application/json': {
          type: 'object',
          required: ['object', 'input_tokens'],
          properties: { object: { const: 'response.input_tokens' }, input_tokens: { type: 'integer', minimum: 0 } },
        },
      },
    },
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
      content: {
        'application/json': {
          type: 'object',
          required: ['id', 'deleted'],
          properties: { id: { type: 'string' }, object: { const: 'response' }, deleted: { const: true } },
        },
      },
    },
    errors: 'openai',
  },
  {
    method: 'get',
    path: '/v1/responses/{id}/input_items',
    summary: 'List the input items of a stored response',
    description:
      'The conversation that produced the response (carried system text first, history of `previous_response_id` included), cursor-paged. Item ids are stable across reads.',
    format: 'openai-responses',
    auth,
    params: [
      id,
      {
        name: 'limit',
        in: 'query',
        description: `Page size 1–${INPUT_ITEMS_LIMITS.max} (default ${INPUT_ITEMS_LIMITS.default}).`,
        schema: { type: 'integer', minimum: 1, maximum: INPUT_ITEMS_LIMITS.max },
      },
      {
        name: 'order',
        in: 'query',
        description: '`asc` (conversation order) or `desc` (default, newest first).',
        schema: { enum: ['asc', 'desc'] },
      },
      {
        name: 'after',
        in: 'query',
        description: 'An item id of this list (the `last_id` of the previous page).',
        schema: { type: 'string' },
      },
      { name: 'include[]', in: 'query', description: 'Accepted and ignored.', schema: { type: 'array', items: { type: 'string' } } },
    ],
    response: { description: 'One page of items.', content: { 'application/json': inputItems } },
    errors: 'openai',
  },
  {
    method: 'post',
    path: '/v1/responses/{id}/cancel',
    summary: 'Cancel a background response (never applicable)',
    description:
      'No response runs in the background here: a stored response answers 400 `not_background`, an unknown one 404 `response_not_found`. The body is not read.',
    format: 'openai-responses',
    auth,
    params: [id],
    response: { status: 400, description: 'Always refused.', content: { 'application/json': openAiErrorShape.schema } },
    errors: 'openai',
  },
];
