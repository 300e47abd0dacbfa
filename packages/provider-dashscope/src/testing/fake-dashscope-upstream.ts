/**
 * A fake Alibaba Cloud Model Studio (DashScope) video-synthesis upstream (Wan): async create that
 * requires `X-DashScope-Async: enable`, the task read (PENDING → RUNNING → SUCCEEDED/FAILED, and
 * UNKNOWN for ids it does not know, as the real API answers expired tasks), cancel of PENDING tasks,
 * errors as `{code, message, request_id}` (InvalidApiKey, Throttling.RateQuota, DataInspectionFailed).
 */
import { randomUUID } from 'node:crypto';
import {
  FakeTaskBook,
  readJson,
  sendJson,
  startFakeHttp,
  startFakeVideoStorage,
  storedVideoUpstream,
  type FakeHttpRequest,
  type FakeStoredVideoUpstream,
  type FakeTask,
  type FakeVideoOptions,
} from '@gateway/testkit';

/** baseUrl as the DashScope SDKs take it: ends in /api/v1 */
export interface FakeDashScope extends FakeStoredVideoUpstream {
  apiKey: string;
}

type Res = Parameters<typeof sendJson>[0];

const errorBody = (status: number, message: string, code?: string) => ({
  request_id: randomUUID(),
  code:
    code ??
    (status === 429
      ? 'Throttling.RateQuota'
      : status === 401
        ? 'InvalidApiKey'
        : status === 404
          ? 'NotFound'
          : status >= 500
            ? 'InternalError'
            : 'InvalidParameter'),
  message,
});

const iso = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

export async function startFakeDashScope(opts: FakeVideoOptions = {}): Promise<FakeDashScope> {
  const apiKey = opts.apiKey ?? 'sk-fake-dashscope-0001';
  const book = new FakeTaskBook(opts, 'ds');
  const storage = await startFakeVideoStorage(book);
  const authed = (r: FakeHttpRequest) => r.headers.authorization === `Bearer ${apiKey}`;
  const guarded =
    (handle: (r: FakeHttpRequest, res: Res, m: RegExpExecArray) => void) => (r: FakeHttpRequest, res: Res, m: RegExpExecArray) =>
      authed(r) ? handle(r, res, m) : sendJson(res, 401, errorBody(401, 'Invalid API-key provided.'));

  const output = (t: FakeTask) => {
    const s = book.state(t).state;
    const task_status =
      s === 'queued'
        ? 'PENDING'
        : s === 'running'
          ? 'RUNNING'
          : s === 'succeeded'
            ? 'SUCCEEDED'
            : s === 'cancelled'
              ? 'CANCELED'
              : 'FAILED';
    const failure =
      task_status !== 'FAILED'
        ? {}
        : t.script.outcome === 'filtered'
          ? { code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' }
          : s === 'expired'
            ? { code: 'RequestTimeOut', message: 'The fake Wan task timed out.' }
            : {
                code: t.script.failCode ?? 'InternalError.Algo',
                message: t.script.failMessage ?? 'The fake DashScope upstream failed this task.',
              };
    return {
      task_id: t.id,
      task_status,
      submit_time: iso(t.createdAt),
      ...(task_status === 'SUCCEEDED' ? { end_time: iso(book.now()), video_url: storage.urlOf(t.id), orig_prompt: t.prompt } : {}),
      ...failure,
    };
  };

  /** The usage of a finished task: its length, and `video_ratio` as `W*H` when the request named a size (text-to-video). */
  const usageOf = (t: FakeTask) => {
    const p = (t.body.parameters as Record<string, unknown> | undefined) ?? {};
    if (t.script.unstatedShape) return { video_count: 1 };
    return {
      video_duration: t.script.deliveredSeconds ?? Number(p.duration ?? 5),
      ...(typeof p.size === 'string' ? { video_ratio: p.size } : {}),
      video_count: 1,
    };
  };

  const api = await startFakeHttp(
    [
      {
        kind: 'create',
        method: 'POST',
        pattern: /^\/api\/v1\/services\/aigc\/video-generation\/video-synthesis$/,
        handle: guarded((r, res) => {
          if (r.headers['x-dashscope-async'] !== 'enable')
            return sendJson(res, 403, errorBody(403, 'current user api does not support synchronous calls', 'AccessDenied'));
          const body = readJson(r);
          const input = body?.input as Record<string, unknown> | undefined;
          if (!body || typeof body.model !== 'string')
            return sendJson(res, 400, errorBody(400, 'Required parameter "model" missing from request.', 'BadRequest.EmptyModel'));
          if (!input || (typeof input.prompt !== 'string' && typeof input.img_url !== 'string'))
            return sendJson(res, 400, errorBody(400, 'Required input parameter missing from request.', 'BadRequest.EmptyInput'));
          const t = book.create(body.model, String(input.prompt ?? ''), body);
          sendJson(res, 200, { request_id: randomUUID(), output: { task_id: t.id, task_status: 'PENDING' } });
        }),
      },
      {
        kind: 'poll',
        method: 'GET',
        pattern: /^\/api\/v1\/tasks\/([A-Za-z0-9_-]+)$/,
        handle: guarded((_r, res, m) => {
          const t = book.get(m[1]!);
          const out = t ? output(t) : { task_id: m[1], task_status: 'UNKNOWN' };
          const usage = t && book.state(t).state === 'succeeded' ? { usage: usageOf(t) } : {};
          sendJson(res, 200, { request_id: randomUUID(), output: out, ...usage });
        }),
      },
      {
        kind: 'cancel',
        method: 'POST',
        pattern: /^\/api\/v1\/tasks\/([A-Za-z0-9_-]+)\/cancel$/,
        handle: guarded((_r, res, m) => {
          const t = book.get(m[1]!);
          if (!t) return sendJson(res, 404, errorBody(404, `Task ${m[1]} not found.`));
          if (book.state(t).state !== 'queued')
            return sendJson(res, 400, errorBody(400, 'Only a PENDING task can be canceled.', 'UnsupportedOperation'));
          t.cancelledAt = book.now();
          sendJson(res, 200, { request_id: randomUUID() });
        }),
      },
    ],
    (status, message) => errorBody(status, message),
  );

  return {
    apiKey,
    ...storedVideoUpstream({ api, storage, book, url: `${api.origin}/api/v1` }, (retryAfterSeconds) => ({
      status: 429,
      retryAfterSeconds,
      body: errorBody(429, 'Requests rate limit exceeded, please try again later.'),
    })),
  };
}
