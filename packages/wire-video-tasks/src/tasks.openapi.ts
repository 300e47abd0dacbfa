import { TASK_STATUSES } from '@gateway/core';
import { IDEMPOTENCY_KEY_PARAM, type ParamDoc, type RouteDoc } from '@gateway/http-kit';
import { PAGE_LIMITS } from './tasks.query.codec';
import { createTaskRequestSchema } from './tasks.request.schema';

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
const auth = { kind: 'api-key', role: 'member' } as const;
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
    body: { content: { 'application/json': createTaskRequestSchema } },
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
    method: 'get',
    path: `${BASE}/{id}/events`,
    summary: 'Follow a video task live (server-sent events)',
    description: 'Any task id (one id space for the three video formats). docs/webhooks.md, "Live status".',
    format: 'video-tasks',
    auth,
    params: [id],
    response: {
      description: 'An event stream of task objects.',
      content: {
        'text/event-stream': {
          type: 'string',
          description:
            'Messages `data: <task object>`, one at once and one per change of status or progress; the stream ends after the terminal state.',
        },
      },
    },
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
