import { BINARY_FILE, openAiErrorShape, IDEMPOTENCY_KEY_PARAM, withFileFields, type RouteDoc } from '@gateway/http-kit';
import { LIST_LIMITS } from './videos.query.codec';
import { createVideoRequestSchema } from './videos.request.schema';

const createVideoForm = withFileFields(createVideoRequestSchema, { input_reference: BINARY_FILE });

const video = {
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

const auth = { kind: 'api-key', role: 'member' } as const;
const id = { name: 'id', in: 'path', required: true, description: 'The video (task) id.', schema: { type: 'string' } } as const;
const refused = (path: string): RouteDoc => ({
  method: 'post',
  path,
  summary: 'Not supported',
  description: 'Needs a source video this gateway does not keep: always 400 `unsupported_video_operation`. Create a new video instead.',
  format: 'openai-videos',
  auth,
  ...(path.includes('{id}') ? { params: [id] } : {}),
  response: { status: 400, description: 'Always refused.', content: { 'application/json': openAiErrorShape.schema } },
  errors: 'openai',
});

export const openAiVideosRoutes: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1/videos',
    summary: 'Create a video',
    description: '200 means the task was accepted: poll `GET /v1/videos/{id}` until `completed` or `failed`.',
    format: 'openai-videos',
    auth,
    params: [IDEMPOTENCY_KEY_PARAM],
    body: { content: { 'application/json': createVideoRequestSchema, 'multipart/form-data': createVideoForm } },
    response: { description: 'The video object, `queued` with progress 0.', content: { 'application/json': video } },
    errors: 'openai',
  },
  {
    method: 'get',
    path: '/v1/videos',
    summary: 'List videos',
    description: "Videos of the key's account, cursor-paged.",
    format: 'openai-videos',
    auth,
    params: [
      {
        name: 'limit',
        in: 'query',
        description: `Page size 1–${LIST_LIMITS.max} (default ${LIST_LIMITS.default}).`,
        schema: { type: 'integer', minimum: 1, maximum: LIST_LIMITS.max },
      },
      { name: 'after', in: 'query', description: 'The `last_id` of the previous page.', schema: { type: 'string' } },
      { name: 'order', in: 'query', description: 'By creation time (default desc).', schema: { enum: ['asc', 'desc'] } },
    ],
    response: {
      description: 'One page.',
      content: {
        'application/json': {
          type: 'object',
          required: ['object', 'data', 'has_more'],
          properties: {
            object: { const: 'list' },
            data: { type: 'array', items: video },
            has_more: { type: 'boolean' },
            first_id: { type: ['string', 'null'] },
            last_id: { type: ['string', 'null'] },
          },
        },
      },
    },
    errors: 'openai',
  },
  {
    method: 'get',
    path: '/v1/videos/{id}',
    summary: 'Read a video',
    format: 'openai-videos',
    auth,
    params: [id],
    response: { description: 'The video object.', content: { 'application/json': video } },
    errors: 'openai',
  },
  {
    method: 'get',
    path: '/v1/videos/{id}/events',
    summary: 'Follow a video live (server-sent events)',
    description: 'Any task id (one id space for the three video formats). docs/webhooks.md, "Live status".',
    format: 'openai-videos',
    auth,
    params: [id],
    response: {
      description: 'An event stream of video objects.',
      content: {
        'text/event-stream': {
          type: 'string',
          description:
            'Messages `data: <video object>`, one at once and one per change of status or progress; the stream ends after the terminal state.',
        },
      },
    },
    errors: 'openai',
  },
  {
    method: 'delete',
    path: '/v1/videos/{id}',
    summary: 'Cancel or delete a video',
    description: 'A queued task is cancelled, a finished one deleted; a running one answers 409.',
    format: 'openai-videos',
    auth,
    params: [id],
    response: {
      description: 'The deletion receipt.',
      content: {
        'application/json': {
          type: 'object',
          required: ['id', 'deleted'],
          properties: { id: { type: 'string' }, object: { const: 'video.deleted' }, deleted: { const: true } },
        },
      },
    },
    errors: 'openai',
  },
  {
    method: 'get',
    path: '/v1/videos/{id}/content',
    summary: 'Download a video or its thumbnail',
    description: 'Supports one byte range (206) and HEAD.',
    format: 'openai-videos',
    auth,
    params: [
      id,
      { name: 'variant', in: 'query', description: '`video` (default) or `thumbnail`.', schema: { enum: ['video', 'thumbnail'] } },
      { name: 'range', in: 'header', description: 'One byte range, e.g. `bytes=0-1023`.', schema: { type: 'string' } },
    ],
    response: {
      description: 'The bytes (206 for a range).',
      content: {
        'video/mp4': { type: 'string', contentMediaType: 'video/mp4' },
        'image/*': { type: 'string', contentMediaType: 'image/*' },
      },
    },
    errors: 'openai',
  },
  {
    method: 'post',
    path: '/v1/videos/{id}/remix',
    summary: 'Remix a completed video',
    description:
      "A new video task with a new prompt and the source's model, seconds and size; its `remixed_from_video_id` names the source. The source must be completed and rendered by an upstream that remixes (the simulator, Sora); otherwise 409 `remix_source_not_completed` or 400 `unsupported_video_operation`. Honours `Idempotency-Key`.",
    format: 'openai-videos',
    auth,
    params: [id],
    body: {
      content: {
        'application/json': {
          type: 'object',
          required: ['prompt'],
          additionalProperties: false,
          properties: { prompt: { type: 'string', minLength: 1 } },
        },
      },
    },
    response: { description: 'The new video object (queued).', content: { 'application/json': video } },
    errors: 'openai',
  },
  ...['/v1/videos/edits', '/v1/videos/extensions', '/v1/videos/characters'].map(refused),
];
