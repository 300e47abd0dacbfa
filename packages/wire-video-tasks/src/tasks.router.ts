import { Router, type Request } from 'express';
import type { VideoTask, VideoTaskService } from '@gateway/core';
import {
  errorMiddleware,
  jsonBody,
  loadUrlBytes,
  principalOf,
  codeMessageErrorShape,
  requireKey,
  streamTaskEvents,
  type Authenticator,
  type TaskEventsSource,
} from '@gateway/http-kit';
import type { UrlLoader } from './content-items.codec';
import { encodeTask } from './task.object.codec';
import { decodeTaskListQuery } from './tasks.query.codec';
import { decodeCreateTask } from './tasks.request.codec';

export interface VideoTasksRouterDeps {
  authenticate: Authenticator;
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

export function videoTasksRouter(deps: VideoTasksRouterDeps): Router {
  const router = Router();
  const auth = requireKey(deps.authenticate);
  const loadUrl = deps.loadUrl ?? loadUrlBytes;

  router.post(BASE, auth, jsonBody(), async (req, res) => {
    const cmd = await decodeCreateTask(req.body, loadUrl);
    const { task, replayed } = await deps.videos.create({
      principal: principalOf(res),
      modelId: cmd.modelId,
      draft: cmd.draft,
      format: VIDEO_TASKS_FORMAT,
      requestId: res.locals.requestId as string,
      idempotencyKey: req.header('idempotency-key') || undefined,
      priority: cmd.priority,
      serviceTier: cmd.serviceTier,
      executionExpiresAfter: cmd.executionExpiresAfter,
      callbackUrl: cmd.callbackUrl,
    });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.json({ id: task.id });
  });

  router.get(BASE, auth, async (req, res) => {
    const { items, total } = await deps.videos.list(principalOf(res), decodeTaskListQuery(req.query as Record<string, unknown>));
    res.json({ total, items: items.map((t) => encodeTask(t, deps.publicBaseUrl(req))) });
  });

  router.get(`${BASE}/:id`, auth, async (req, res) => {
    res.json(encodeTask(await deps.videos.get(principalOf(res), String(req.params.id)), deps.publicBaseUrl(req)));
  });

  // Live status: the task object at once and at every change, until it is terminal (docs/webhooks.md).
  router.get(`${BASE}/:id/events`, auth, async (req, res) => {
    await streamTaskEvents(res, deps.taskEvents, String(req.params.id), (t) => encodeTask(t, deps.publicBaseUrl(req)));
  });

  // queued → cancelled, finished → deleted, running → 409 (decided by the use case).
  router.delete(`${BASE}/:id`, auth, async (req, res) => {
    const { outcome, task } = await deps.videos.cancelOrDelete(principalOf(res), String(req.params.id));
    res.json({ id: task.id, outcome });
  });

  router.use(errorMiddleware(codeMessageErrorShape.render));
  return router;
}
