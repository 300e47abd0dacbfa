import { BINARY_FILE, cursorPage, pathParam, queryParam, withFileFields, type ParamDoc } from '@gateway/http-kit';
import { LIST_LIMITS } from './videos.query.codec';
import { createVideoRequestSchema } from './videos.request.schema';

export const createVideoForm = withFileFields(createVideoRequestSchema, { input_reference: BINARY_FILE });

export const video = {
  type: 'object',
  required: ['id', 'object', 'model', 'status', 'progress', 'created_at', 'seconds', 'size'],
  properties: {
    id: { type: 'string' },
    object: { const: 'video' },
    model: { type: 'string' },
    status: { enum: ['queued', 'in_progress', 'completed', 'failed'] },
    progress: { type: 'number', minimum: 0, maximum: 100 },
    created_at: { type: 'integer' },
    completed_at: { type: ['integer', 'null'] },
    expires_at: { type: ['integer', 'null'] },
    error: { anyOf: [{ type: 'null' }, { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } }] },
    prompt: { type: ['string', 'null'] },
    seconds: { type: 'string' },
    size: { type: 'string' },
  },
};

export const idParam = pathParam('id', 'The video (task) id.');

/** The paging of `GET /v1/videos`. */
export const listParams: ParamDoc[] = [
  queryParam('limit', `Page size 1–${LIST_LIMITS.max} (default ${LIST_LIMITS.default}).`, {
    type: 'integer',
    minimum: 1,
    maximum: LIST_LIMITS.max,
  }),
  queryParam('after', 'The `last_id` of the previous page.'),
  queryParam('order', 'By creation time (default desc).', { enum: ['asc', 'desc'] }),
];

/** The answer of `GET /v1/videos`. */
export const listResponse = {
  description: 'One page.',
  content: { 'application/json': cursorPage(video) },
};
