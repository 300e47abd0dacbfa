import { Router, type ErrorRequestHandler } from 'express';
import { invalid, type VideoTask, type VideoTaskService } from '@gateway/core';
import {
  errorMiddleware,
  jsonOrMultipart,
  loadUrlBytes,
  normalizeError,
  principalOf,
  openAiErrorShape,
  requireKey,
  sendContent,
  streamTaskEvents,
  type Authenticator,
  type TaskEventsSource,
} from '@gateway/http-kit';
import { encodeVideo, encodeVideoList } from './video.object.codec';
import { decodeVariant, decodeVideoListQuery } from './videos.query.codec';
import { decodeCreateVideo, decodeRemixVideo, type UploadedPart, type UrlLoader } from './videos.request.codec';

export interface OpenAiVideosRouterDeps {
  authenticate: Authenticator;
  videos: VideoTaskService;
  /** live status (GET /v1/videos/{id}/events) */
  taskEvents: TaskEventsSource<VideoTask>;
  /** fetches input_reference URLs; defaults to the SSRF-safe loader of http-kit */
  loadUrl?: UrlLoader;
}

export const OPENAI_VIDEOS_FORMAT = 'openai-videos';

/**
 * The openai SDK retries 409 by default; a refused cancel of a running task would then be retried
 * and, once the task finished, turn into a delete the caller never asked for.
 */
const noRetryOnConflict: ErrorRequestHandler = (e, _req, res, next) => {
  if (normalizeError(e).reason === 'conflict') res.setHeader('x-should-retry', 'false');
  next(e);
};

export function openAiVideosRouter(deps: OpenAiVideosRouterDeps): Router {
  const router = Router();
  const auth = requireKey(deps.authenticate);
  const loadUrl = deps.loadUrl ?? loadUrlBytes;

  router.post('/v1/videos', auth, jsonOrMultipart(), async (req, res) => {
    const files = (Array.isArray(req.files) ? req.files : []) as UploadedPart[];
    const { modelId, draft } = await decodeCreateVideo((req.body ?? {}) as Record<string, unknown>, files, loadUrl);
    const { task, replayed } = await deps.videos.create({
      principal: principalOf(res),
      modelId,
      draft,
      format: OPENAI_VIDEOS_FORMAT,
      requestId: res.locals.requestId as string,
      idempotencyKey: req.header('idempotency-key') || undefined,
    });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.json(encodeVideo(task));
  });

  router.get('/v1/videos', auth, async (req, res) => {
    const query = decodeVideoListQuery(req.query as Record<string, unknown>);
    const { items, hasMore } = await deps.videos.list(principalOf(res), query);
    res.json(encodeVideoList(items, hasMore));
  });

  // Edits, extensions and characters take source videos or uploads the upstreams here cannot all honour.
  router.post(['/v1/videos/edits', '/v1/videos/extensions', '/v1/videos/characters'], auth, () => {
    throw invalid(
      'unsupported_video_operation',
      'Edits, extensions and characters are not supported; create a new video with POST /v1/videos, or remix one.',
    );
  });

  /** A new take of a completed video with a new prompt: same model, seconds and size (the upstream must remix). */
  router.post('/v1/videos/:id/remix', auth, jsonOrMultipart(), async (req, res) => {
    const { task, replayed } = await deps.videos.remix({
      principal: principalOf(res),
      sourceId: String(req.params.id),
      prompt: decodeRemixVideo((req.body ?? {}) as Record<string, unknown>),
      format: OPENAI_VIDEOS_FORMAT,
      requestId: res.locals.requestId as string,
      idempotencyKey: req.header('idempotency-key') || undefined,
    });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.json(encodeVideo(task));
  });

  router.get('/v1/videos/:id', auth, async (req, res) => {
    res.json(encodeVideo(await deps.videos.get(principalOf(res), String(req.params.id))));
  });

  // Live status: the video object at once and at every change, until it is terminal (docs/webhooks.md).
  router.get('/v1/videos/:id/events', auth, async (req, res) => {
    await streamTaskEvents(res, deps.taskEvents, String(req.params.id), encodeVideo);
  });

  router.delete('/v1/videos/:id', auth, async (req, res) => {
    const { task } = await deps.videos.cancelOrDelete(principalOf(res), String(req.params.id));
    res.json({ id: task.id, object: 'video.deleted', deleted: true });
  });

  // GET also answers HEAD (express routes HEAD to GET handlers).
  router.get('/v1/videos/:id/content', auth, async (req, res) => {
    const variant = decodeVariant(req.query.variant);
    const id = String(req.params.id);
    const content = await deps.videos.content(principalOf(res), id, variant);
    const ext = variant === 'video' ? 'mp4' : content.mediaType === 'image/png' ? 'png' : 'jpg';
    await sendContent(req, res, content, { filename: `${id}.${ext}`, disposition: 'inline', renderError: openAiErrorShape.render });
  });

  router.use(noRetryOnConflict, errorMiddleware(openAiErrorShape.render));
  return router;
}
