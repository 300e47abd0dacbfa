import { invalid, type VideoTask, type VideoTaskService } from '@gateway/core';
import {
  deletionReceipt,
  IDEMPOTENCY_KEY_PARAM,
  jsonOrMultipart,
  loadUrlBytes,
  openAiErrorShape,
  routeOf,
  streamTaskEvents,
  taskEventsResponse,
  type TaskEventsSource,
} from '@gateway/http-kit';
import { encodeVideo, encodeVideoList } from './video.object.codec';
import { idParam, listParams, listResponse, video } from './videos.openapi';
import { sendVideoContent, videoContentParams, videoContentResponse } from './video-content.download';
import { decodeVideoListQuery } from './videos.query.codec';
import { createVideoBody, decodeCreateVideo, remixVideoBody, type UploadedPart, type UrlLoader } from './videos.request.codec';

export interface OpenAiVideosRouterDeps {
  videos: VideoTaskService;
  /** live status (GET /v1/videos/{id}/events) */
  taskEvents: TaskEventsSource<VideoTask>;
  /** fetches input_reference URLs; defaults to the SSRF-safe loader of http-kit */
  loadUrl?: UrlLoader;
}

export const OPENAI_VIDEOS_FORMAT = 'openai-videos';

const route = routeOf<OpenAiVideosRouterDeps>();
const auth = { kind: 'api-key', role: 'member' } as const;
/** the reads: a dashboard session may list and watch its account's videos (it never creates one) */
const read = { ...auth, session: true } as const;
const format = OPENAI_VIDEOS_FORMAT;
// A refused cancel of a running task is a 409, which the openai SDK retries by default: sendError marks every
// conflict `x-should-retry: false`, so a retry cannot turn into a delete the caller never asked for.

/** Edits, extensions and characters take source videos or uploads the upstreams here cannot all honour. */
const refused = (path: string) =>
  route({
    method: 'post',
    path,
    summary: 'Not supported',
    description: 'Needs a source video this gateway does not keep: always 400 `unsupported_video_operation`. Create a new video instead.',
    format,
    auth,
    response: { status: 400, description: 'Always refused.', content: { 'application/json': openAiErrorShape.schema } },
    errors: 'openai',
    handle() {
      throw invalid(
        'unsupported_video_operation',
        'Edits, extensions and characters are not supported; create a new video with POST /v1/videos, or remix one.',
      );
    },
  });

export const openAiVideosRoutes = [
  route({
    method: 'post',
    path: '/v1/videos',
    summary: 'Create a video',
    description: '200 means the task was accepted: poll `GET /v1/videos/{id}` until `completed` or `failed`.',
    format,
    auth,
    params: [IDEMPOTENCY_KEY_PARAM],
    body: createVideoBody,
    response: { description: 'The video object, `queued` with progress 0.', content: { 'application/json': video } },
    errors: 'openai',
    parse: [jsonOrMultipart()],
    async handle({ deps, principal, requestId, body }, req, res) {
      const files = (Array.isArray(req.files) ? req.files : []) as UploadedPart[];
      const { modelId, draft } = await decodeCreateVideo(body, files, deps.loadUrl ?? loadUrlBytes);
      const { task, replayed } = await deps.videos.create({
        principal,
        modelId,
        draft,
        format,
        requestId,
        idempotencyKey: req.header('idempotency-key') || undefined,
      });
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.json(encodeVideo(task));
    },
  }),
  route({
    method: 'get',
    path: '/v1/videos',
    summary: 'List videos',
    description: "Videos of the key's account, cursor-paged.",
    format,
    auth: read,
    params: listParams,
    response: listResponse,
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      const query = decodeVideoListQuery(req.query as Record<string, unknown>);
      const { items, hasMore } = await deps.videos.list(principal, query);
      res.json(encodeVideoList(items, hasMore));
    },
  }),
  route({
    method: 'get',
    path: '/v1/videos/{id}',
    summary: 'Read a video',
    format,
    auth: read,
    params: [idParam],
    response: { description: 'The video object.', content: { 'application/json': video } },
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      res.json(encodeVideo(await deps.videos.get(principal, String(req.params.id))));
    },
  }),
  // Live status: the video object at once and at every change, until it is terminal (docs/webhooks.md).
  route({
    method: 'get',
    path: '/v1/videos/{id}/events',
    summary: 'Follow a video live (server-sent events)',
    description: 'Any task id (one id space for the three video formats). docs/webhooks.md, "Live status".',
    format,
    auth: read,
    params: [idParam],
    response: taskEventsResponse('video object'),
    errors: 'openai',
    async handle({ deps }, req, res) {
      await streamTaskEvents(res, deps.taskEvents, String(req.params.id), encodeVideo);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/videos/{id}',
    summary: 'Cancel or delete a video',
    description: 'A queued task is cancelled, a finished one deleted; a running one answers 409.',
    format,
    auth,
    params: [idParam],
    response: deletionReceipt('video.deleted'),
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      const { task } = await deps.videos.cancelOrDelete(principal, String(req.params.id));
      res.json({ id: task.id, object: 'video.deleted', deleted: true });
    },
  }),
  // GET also answers HEAD (express routes HEAD to GET handlers).
  route({
    method: 'get',
    path: '/v1/videos/{id}/content',
    summary: 'Download a video or its thumbnail',
    description: 'Supports one byte range (206) and HEAD.',
    format,
    auth: read,
    params: [idParam, ...videoContentParams],
    response: videoContentResponse,
    errors: 'openai',
    handle: ({ deps, principal }, req, res) => sendVideoContent(req, res, (id, variant) => deps.videos.content(principal, id, variant)),
  }),
  /** A new take of a completed video with a new prompt: same model, seconds and size (the upstream must remix). */
  route({
    method: 'post',
    path: '/v1/videos/{id}/remix',
    summary: 'Remix a completed video',
    description:
      "A new video task with a new prompt and the source's model, seconds and size; its `remixed_from_video_id` names the source. The source must be completed and rendered by an upstream that remixes (the simulator, Sora); otherwise 409 `remix_source_not_completed` or 400 `unsupported_video_operation`. Honours `Idempotency-Key`.",
    format,
    auth,
    params: [idParam],
    body: remixVideoBody,
    response: { description: 'The new video object (queued).', content: { 'application/json': video } },
    errors: 'openai',
    parse: [jsonOrMultipart()],
    async handle({ deps, principal, requestId, body }, req, res) {
      const { task, replayed } = await deps.videos.remix({
        principal,
        sourceId: String(req.params.id),
        prompt: body.prompt,
        format,
        requestId,
        idempotencyKey: req.header('idempotency-key') || undefined,
      });
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.json(encodeVideo(task));
    },
  }),
  ...['/v1/videos/edits', '/v1/videos/extensions', '/v1/videos/characters'].map(refused),
];
