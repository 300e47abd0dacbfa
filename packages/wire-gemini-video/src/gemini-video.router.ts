import type { Request } from 'express';
import { invalid, type VideoTask, type VideoTaskService } from '@gateway/core';
import {
  atGeminiVersions,
  codeMessageErrorShape,
  IDEMPOTENCY_KEY_PARAM,
  jsonBody,
  pathParam,
  routeOf,
  sendContent,
  streamTaskEvents,
  taskEventsResponse,
  type TaskEventsSource,
} from '@gateway/http-kit';
import { modelParam, operation, operationParams } from './gemini-video.openapi';
import { encodeOperation } from './operation.codec';
import { decodePredictRequest, predictBody } from './predict.request.codec';

export interface GeminiVideoRouterDeps {
  videos: VideoTaskService;
  /** live status (GET /v1beta/models/{model}/operations/{id}/events) */
  taskEvents: TaskEventsSource<VideoTask>;
  /** PUBLIC_BASE_URL; the download URI is always given with https:// */
  publicBaseUrl: (req: Request) => string;
}

export const GEMINI_VIDEO_FORMAT = 'gemini-video';

const route = routeOf<GeminiVideoRouterDeps>();
// The SDK sends x-goog-api-key; curl users often send a bearer token.
const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-goog-api-key'] } as const;
const format = GEMINI_VIDEO_FORMAT;

/** Veo's routes under `/v1beta` and `/v1`; `:predictLongRunning` and `:download` are literal verbs inside a segment. */
export const geminiVideoRoutes = atGeminiVersions([
  route({
    method: 'post',
    path: '/v1beta/models/{model}:predictLongRunning',
    summary: 'Start a video generation',
    description: '200 means the task was accepted, not that the video is ready: poll the operation `name`.',
    format,
    auth,
    params: [modelParam, IDEMPOTENCY_KEY_PARAM],
    body: predictBody,
    response: { description: 'The operation, `done: false`.', content: { 'application/json': operation } },
    errors: 'code-message',
    parse: [jsonBody()],
    async handle({ deps, principal, requestId, body }, req, res) {
      const draft = decodePredictRequest(body);
      const { task, replayed } = await deps.videos.create({
        principal,
        modelId: String(req.params.model),
        draft,
        format,
        requestId,
        idempotencyKey: req.header('idempotency-key') || undefined,
      });
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.json(encodeOperation(task, deps.publicBaseUrl(req)));
    },
  }),
  // The model segment is not checked: the task id alone names the operation, so a task created in
  // another format can be polled here under any model name (documented in docs/formats/gemini-video.md).
  route({
    method: 'get',
    path: '/v1beta/models/{model}/operations/{id}',
    summary: 'Poll a video operation',
    description: 'The task id alone names the operation; the model segment is not checked.',
    format,
    auth,
    params: operationParams,
    response: { description: 'The operation; when done, `response` or `error`.', content: { 'application/json': operation } },
    errors: 'code-message',
    async handle({ deps, principal }, req, res) {
      const task = await deps.videos.get(principal, String(req.params.id));
      res.json(encodeOperation(task, deps.publicBaseUrl(req)));
    },
  }),
  // Live status: the operation at once and at every change, until done (docs/webhooks.md).
  route({
    method: 'get',
    path: '/v1beta/models/{model}/operations/{id}/events',
    summary: 'Follow a video operation live (server-sent events)',
    description: 'Any task id (one id space for the three video formats). docs/webhooks.md, "Live status".',
    format,
    auth,
    params: operationParams,
    response: taskEventsResponse('operation'),
    errors: 'code-message',
    async handle({ deps }, req, res) {
      await streamTaskEvents(res, deps.taskEvents, String(req.params.id), (t) => encodeOperation(t, deps.publicBaseUrl(req)));
    },
  }),
  route({
    method: 'get',
    path: '/v1beta/files/{id}:download',
    summary: 'Download a generated video',
    description: 'The `video.uri` of a finished operation. HEAD answers the headers only.',
    format,
    auth,
    params: [pathParam('id', 'The task id.'), { name: 'alt', in: 'query', description: 'Only `media`.', schema: { const: 'media' } }],
    response: { description: 'The video bytes.', content: { 'video/mp4': { type: 'string', contentMediaType: 'video/mp4' } } },
    errors: 'code-message',
    async handle({ deps, principal }, req, res) {
      const alt = req.query.alt;
      if (alt !== undefined && alt !== 'media')
        throw invalid('unsupported_alt', 'Only alt=media is supported: this route returns the file bytes.', 'alt');
      const id = String(req.params.id);
      const content = await deps.videos.content(principal, id, 'video');
      await sendContent(req, res, content, { filename: `${id}.mp4`, disposition: 'attachment', renderError: codeMessageErrorShape.render });
    },
  }),
]);
