import { pathParam, queryParam, type ParamDoc } from '@gateway/http-kit';
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
  queryParam('limit', `Page size 1–${INPUT_ITEMS_LIMITS.max} (default ${INPUT_ITEMS_LIMITS.default}).`, {
    type: 'integer',
    minimum: 1,
    maximum: INPUT_ITEMS_LIMITS.max,
  }),
  queryParam('order', '`asc` (conversation order) or `desc` (default, newest first).', { enum: ['asc', 'desc'] }),
  queryParam('after', 'An item id of this list (the `last_id` of the previous page).'),
  queryParam('include[]', 'Accepted and ignored.', { type: 'array', items: { type: 'string' } }),
];
