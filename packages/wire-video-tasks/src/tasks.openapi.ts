import { ASPECT_RATIOS, RESOLUTIONS, TASK_STATUSES, VIDEO_DEFAULTS, VIDEO_FAMILY_LIMITS } from '@gateway/core';
import { IDEMPOTENCY_KEY_PARAM, type ParamDoc, type RouteDoc } from '@gateway/http-kit';
import { IMAGE_ROLES } from './content-items.codec';
import { PAGE_LIMITS } from './tasks.query.codec';
import { EXPIRES_AFTER_RANGE, SERVICE_TIERS } from './tasks.request.codec';

/**
 * decodeCreateTask checks the body by hand, so this schema describes it; the openapi test checks that every
 * property named here is one the decoder accepts. Model-dependent ranges are the limits table's.
 */
const families = Object.values(VIDEO_FAMILY_LIMITS);

const contentItem = {
  type: 'object',
  required: ['type'],
  oneOf: [
    { properties: { type: { const: 'text' }, text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    {
      properties: {
        type: { const: 'image_url' },
        image_url: {
          type: 'object',
          required: ['url'],
          properties: { url: { type: 'string', description: 'An https URL or a data URL.' } },
        },
        role: { enum: [...IMAGE_ROLES], default: 'first_frame' },
      },
      required: ['image_url'],
      additionalProperties: false,
    },
  ],
};

export const createTaskRequestDoc = {
  type: 'object',
  required: ['model', 'content'],
  additionalProperties: false,
  properties: {
    model: { type: 'string', minLength: 1 },
    content: { type: 'array', items: contentItem, description: 'One text item (the prompt) and image items by role.' },
    ratio: { enum: [...ASPECT_RATIOS], default: VIDEO_DEFAULTS.aspectRatio },
    resolution: { enum: [...RESOLUTIONS], default: VIDEO_DEFAULTS.resolution },
    duration: {
      type: 'integer',
      minimum: Math.min(...families.map((f) => f.minSeconds)),
      maximum: Math.max(...families.map((f) => f.maxSeconds)),
      default: VIDEO_DEFAULTS.durationSeconds,
    },
    generate_audio: { type: 'boolean', default: VIDEO_DEFAULTS.generateAudio },
    priority: { type: 'integer', minimum: 0 },
    service_tier: { enum: [...SERVICE_TIERS] },
    execution_expires_after: { type: 'integer', minimum: EXPIRES_AFTER_RANGE.min, maximum: EXPIRES_AFTER_RANGE.max },
  },
};

const task = {
  type: 'object',
  required: ['id', 'model', 'status', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    model: { type: 'string' },
    status: { enum: [...TASK_STATUSES] },
    error: {
      anyOf: [
        { type: 'null' },
        { type: 'object', required: ['message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
      ],
    },
    content: {
      type: 'object',
      properties: { video_url: { type: 'string', description: 'Set once succeeded; download with the same key.' } },
    },
    usage: { type: 'object', properties: { completion_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } } },
    output_format: { type: 'string' },
    framespersecond: { type: 'integer' },
    resolution: { type: 'string' },
    ratio: { type: 'string' },
    duration: { type: 'integer' },
    generate_audio: { type: 'boolean' },
    priority: { type: 'integer' },
    service_tier: { type: 'string' },
    execution_expires_after: { type: 'integer' },
    created_at: { type: 'integer' },
    updated_at: { type: 'integer' },
  },
};

const BASE = '/v1/contents/generations/tasks';
const auth = { kind: 'api-key' } as const;
const id = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The task id returned at creation.',
  schema: { type: 'string' },
} as const;
const filter = (name: string, description: string, schema: object): ParamDoc => ({
  name: `filter.${name}`,
  in: 'query',
  description: `${description} (also \`filter[${name}]\`).`,
  schema,
});

export const videoTasksRoutes: RouteDoc[] = [
  {
    method: 'post',
    path: BASE,
    summary: 'Create a video task',
    description: '200 means the task was accepted: poll it every 10–15 s.',
    format: 'video-tasks',
    auth,
    params: [IDEMPOTENCY_KEY_PARAM],
    body: { content: { 'application/json': createTaskRequestDoc } },
    response: {
      description: 'The task id.',
      content: { 'application/json': { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } },
    },
    errors: 'code-message',
  },
  {
    method: 'get',
    path: BASE,
    summary: 'List video tasks',
    description: "Tasks of the key's account, newest first.",
    format: 'video-tasks',
    auth,
    params: [
      {
        name: 'page_num',
        in: 'query',
        description: 'Page number from 1.',
        schema: { type: 'integer', minimum: 1, maximum: PAGE_LIMITS.max },
      },
      {
        name: 'page_size',
        in: 'query',
        description: `Page size 1–${PAGE_LIMITS.max} (default ${PAGE_LIMITS.defaultSize}).`,
        schema: { type: 'integer', minimum: 1, maximum: PAGE_LIMITS.max },
      },
      filter('status', 'Only this status', { enum: [...TASK_STATUSES] }),
      filter('model', 'Only this model', { type: 'string' }),
      filter('task_ids', 'Only these ids; repeat for several', { type: 'array', items: { type: 'string' } }),
    ],
    response: {
      description: 'One page and the total.',
      content: {
        'application/json': {
          type: 'object',
          required: ['total', 'items'],
          properties: { total: { type: 'integer' }, items: { type: 'array', items: task } },
        },
      },
    },
    errors: 'code-message',
  },
  {
    method: 'get',
    path: `${BASE}/{id}`,
    summary: 'Read a video task',
    description: "Another account's task reads as missing. Stop polling on failed, cancelled or expired.",
    format: 'video-tasks',
    auth,
    params: [id],
    response: { description: 'The task.', content: { 'application/json': task } },
    errors: 'code-message',
  },
  {
    method: 'delete',
    path: `${BASE}/{id}`,
    summary: 'Cancel or delete a video task',
    description: 'A queued task is cancelled, a finished one deleted; a running one answers 409.',
    format: 'video-tasks',
    auth,
    params: [id],
    response: {
      description: 'What happened.',
      content: {
        'application/json': {
          type: 'object',
          required: ['id', 'outcome'],
          properties: { id: { type: 'string' }, outcome: { enum: ['cancelled', 'deleted'] } },
        },
      },
    },
    errors: 'code-message',
  },
];
