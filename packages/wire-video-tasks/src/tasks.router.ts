import type { Request } from 'express';
import { TASK_STATUSES, type VideoTask, type VideoTaskService } from '@gateway/core';
import {
  IDEMPOTENCY_KEY_PARAM,
  jsonBody,
  loadUrlBytes,
  queryParam,
  routeOf,
  streamTaskEvents,
  taskEventsResponse,
  type TaskEventsSource,
} from '@gateway/http-kit';
import type { UrlLoader } from './content-items.codec';
import { encodeTask } from './task.object.codec';
import { filter, idParam, task } from './tasks.openapi';
import { decodeTaskListQuery, PAGE_LIMITS } from './tasks.query.codec';
import { createTaskBody, decodeCreateTask } from './tasks.request.codec';

const pageSchema = { type: 'integer', minimum: 1, maximum: PAGE_LIMITS.max };

export interface VideoTasksRouterDeps {
  videos: VideoTaskService;
  /** live status (GET /v1/contents/generations/tasks/{id}/events) */
  taskEvents: TaskEventsSource<VideoTask>;
  /** PUBLIC_BASE_URL, for content.video_url */
  publicBaseUrl: (req: Request) => string;
  /** fetches image_url URLs; defaults to the SSRF-safe loader of http-kit */
  loadUrl?: UrlLoader;
}

export const VIDEO_TASKS_FORMAT = 'video-tasks';
const BASE = '/v1/contents/generations/tasks';
const route = routeOf<VideoTasksRouterDeps>();
const auth = { kind: 'api-key', role: 'member' } as const;
/** the reads: a dashboard session may list and watch its account's tasks (it never creates one) */
const read = { ...auth, session: true } as const;

export const videoTasksRoutes = [
  route({
    method: 'post',
    path: BASE,
    summary: 'Create a video task',
    description: '200 means the task was accepted: poll it every 10–15 s.',
    format: 'video-tasks',
    auth,
    params: [IDEMPOTENCY_KEY_PARAM],
    body: createTaskBody,
    response: {
      description: 'The task id.',
      content: { 'application/json': { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } },
    },
    errors: 'code-message',
    parse: [jsonBody()],
    async handle({ deps, principal, requestId, body }, req, res) {
      const cmd = await decodeCreateTask(body, deps.loadUrl ?? loadUrlBytes);
      const { task, replayed } = await deps.videos.create({
        principal,
        modelId: cmd.modelId,
        draft: cmd.draft,
        format: VIDEO_TASKS_FORMAT,
        requestId,
        idempotencyKey: req.header('idempotency-key') || undefined,
        priority: cmd.priority,
        serviceTier: cmd.serviceTier,
        executionExpiresAfter: cmd.executionExpiresAfter,
        callbackUrl: cmd.callbackUrl,
      });
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.json({ id: task.id });
    },
  }),
  route({
    method: 'get',
    path: BASE,
    summary: 'List video tasks',
    description: "Tasks of the key's account, newest first.",
    format: 'video-tasks',
    auth: read,
    params: [
      queryParam('page_num', 'Page number from 1.', pageSchema),
      queryParam('page_size', `Page size 1–${PAGE_LIMITS.max} (default ${PAGE_LIMITS.defaultSize}).`, pageSchema),
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
    async handle({ deps, principal }, req, res) {
      const { items, total } = await deps.videos.list(principal, decodeTaskListQuery(req.query as Record<string, unknown>));
      res.json({ total, items: items.map((t) => encodeTask(t, deps.publicBaseUrl(req))) });
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/{id}`,
    summary: 'Read a video task',
    description: "Another account's task reads as missing. Stop polling on failed, cancelled or expired.",
    format: 'video-tasks',
    auth: read,
    params: [idParam],
    response: { description: 'The task.', content: { 'application/json': task } },
    errors: 'code-message',
    async handle({ deps, principal }, req, res) {
      res.json(encodeTask(await deps.videos.get(principal, String(req.params.id)), deps.publicBaseUrl(req)));
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/{id}/events`,
    summary: 'Follow a video task live (server-sent events)',
    description: 'Any task id (one id space for the three video formats). docs/webhooks.md, "Live status".',
    format: 'video-tasks',
    auth: read,
    params: [idParam],
    response: taskEventsResponse('task object'),
    errors: 'code-message',
    // Live status: the task object at once and at every change, until it is terminal (docs/webhooks.md).
    async handle({ deps }, req, res) {
      await streamTaskEvents(res, deps.taskEvents, String(req.params.id), (t) => encodeTask(t, deps.publicBaseUrl(req)));
    },
  }),
  route({
    method: 'delete',
    path: `${BASE}/{id}`,
    summary: 'Cancel or delete a video task',
    description: 'A queued task is cancelled, a finished one deleted; a running one answers 409.',
    format: 'video-tasks',
    auth,
    params: [idParam],
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
    // queued → cancelled, finished → deleted, running → 409 (decided by the use case).
    async handle({ deps, principal }, req, res) {
      const { outcome, task } = await deps.videos.cancelOrDelete(principal, String(req.params.id));
      res.json({ id: task.id, outcome });
    },
  }),
];
