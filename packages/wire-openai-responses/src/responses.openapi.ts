import { pathParam, type ParamDoc } from '@gateway/http-kit';
import { INPUT_ITEMS_LIMITS } from './responses.input-items';

export const response = {
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

export const compaction = {
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

export const inputItems = {
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

export const idParam = pathParam('id', "A stored response id (`resp_…`) of the key's account.");

/** The paging of `GET /v1/responses/{id}/input_items`. */
export const inputItemsParams: ParamDoc[] = [
  idParam,
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
];
