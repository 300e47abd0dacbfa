import { Router, type Request } from 'express';
import { invalid, type VideoTask, type VideoTaskService } from '@gateway/core';
import {
  errorMiddleware,
  geminiPaths,
  geminiRoute,
  jsonBody,
  principalOf,
  codeMessageErrorShape,
  requireKey,
  sendContent,
  streamTaskEvents,
  type Authenticator,
  type TaskEventsSource,
} from '@gateway/http-kit';
import { encodeOperation } from './operation.codec';
import { decodePredictRequest } from './predict.request.codec';

export interface GeminiVideoRouterDeps {
  authenticate: Authenticator;
  videos: VideoTaskService;
  /** live status (GET /v1beta/models/{model}/operations/{id}/events) */
  taskEvents: TaskEventsSource<VideoTask>;
  /** PUBLIC_BASE_URL; the download URI is always given with https:// */
  publicBaseUrl: (req: Request) => string;
}

export const GEMINI_VIDEO_FORMAT = 'gemini-video';

// Regex routes: the model and file id are followed by a `:verb` inside the same path segment.
// Only this verb is claimed; :generateContent and friends fall through to their own routers.
const PREDICT = geminiRoute('/models/([^/]+):predictLongRunning');
const DOWNLOAD = geminiRoute('/files/([^/]+):download');

const param0 = (req: Request) => String((req.params as Record<string, string>)[0]);

export function geminiVideoRouter(deps: GeminiVideoRouterDeps): Router {
  const router = Router();
  // The SDK sends x-goog-api-key; curl users often send a bearer token.
  const auth = requireKey(deps.authenticate, ['x-goog-api-key']);

  router.post(PREDICT, auth, jsonBody(), async (req, res) => {
    const draft = decodePredictRequest(req.body);
    const { task, replayed } = await deps.videos.create({
      principal: principalOf(res),
      modelId: param0(req),
      draft,
      format: GEMINI_VIDEO_FORMAT,
      requestId: res.locals.requestId as string,
      idempotencyKey: req.header('idempotency-key') || undefined,
    });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.json(encodeOperation(task, deps.publicBaseUrl(req)));
  });

  // The model segment is not checked: the task id alone names the operation, so a task created in
  // another format can be polled here under any model name (documented in docs/formats/gemini-video.md).
  router.get(geminiPaths('/models/:model/operations/:id'), auth, async (req, res) => {
    const task = await deps.videos.get(principalOf(res), String(req.params.id));
    res.json(encodeOperation(task, deps.publicBaseUrl(req)));
  });

  // Live status: the operation at once and at every change, until done (docs/webhooks.md).
  router.get(geminiPaths('/models/:model/operations/:id/events'), auth, async (req, res) => {
    await streamTaskEvents(res, deps.taskEvents, String(req.params.id), (t) => encodeOperation(t, deps.publicBaseUrl(req)));
  });

  router.get(DOWNLOAD, auth, async (req, res) => {
    const alt = req.query.alt;
    if (alt !== undefined && alt !== 'media')
      throw invalid('unsupported_alt', 'Only alt=media is supported: this route returns the file bytes.', 'alt');
    const content = await deps.videos.content(principalOf(res), param0(req), 'video');
    await sendContent(req, res, content, {
      filename: `${param0(req)}.mp4`,
      disposition: 'attachment',
      renderError: codeMessageErrorShape.render,
    });
  });

  router.use(errorMiddleware(codeMessageErrorShape.render));
  return router;
}
