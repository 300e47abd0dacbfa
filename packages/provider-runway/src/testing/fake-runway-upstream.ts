/**
 * A fake Runway API video upstream: image_to_video and text_to_video (both need `X-Runway-Version`),
 * the task read (PENDING/THROTTLED → RUNNING → SUCCEEDED/FAILED with failure and failureCode), and
 * DELETE, which cancels a task that is not done and deletes one that is (both 204; then 404).
 * Errors are `{"error": "..."}`.
 */
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

export const RUNWAY_API_VERSION = '2024-11-06';

/** baseUrl as the Runway SDK takes it (no /v1) */
export interface FakeRunway extends FakeStoredVideoUpstream {
  apiKey: string;
}

type Res = Parameters<typeof sendJson>[0];

const errorBody = (_status: number, message: string) => ({ error: message });

export async function startFakeRunway(opts: FakeVideoOptions = {}): Promise<FakeRunway> {
  const apiKey = opts.apiKey ?? 'key_fake_runway_0001';
  const book = new FakeTaskBook(opts, 'rw');
  const storage = await startFakeVideoStorage(book);
  const guarded =
    (handle: (r: FakeHttpRequest, res: Res, m: RegExpExecArray) => void) => (r: FakeHttpRequest, res: Res, m: RegExpExecArray) => {
      if (r.headers.authorization !== `Bearer ${apiKey}`) return sendJson(res, 401, errorBody(401, 'Incorrect API key or token.'));
      if (r.headers['x-runway-version'] !== RUNWAY_API_VERSION)
        return sendJson(res, 400, errorBody(400, `The X-Runway-Version header must be set to ${RUNWAY_API_VERSION}.`));
      handle(r, res, m);
    };

  const task = (t: FakeTask) => {
    const s = book.state(t);
    // A task held in the queue reports THROTTLED (over the account's concurrency), as Runway does.
    const status =
      s.state === 'queued'
        ? t.prompt.includes('[hold]')
          ? 'THROTTLED'
          : 'PENDING'
        : s.state === 'running'
          ? 'RUNNING'
          : s.state === 'succeeded'
            ? 'SUCCEEDED'
            : s.state === 'cancelled'
              ? 'CANCELLED'
              : 'FAILED';
    const failure =
      status !== 'FAILED'
        ? {}
        : t.script.outcome === 'filtered'
          ? { failure: 'The output was flagged by content moderation.', failureCode: 'SAFETY.OUTPUT.VIDEO' }
          : {
              failure: t.script.failMessage ?? 'The fake Runway upstream failed this task.',
              failureCode: t.script.failCode ?? 'INTERNAL.BAD_OUTPUT.CODE01',
            };
    return {
      id: t.id,
      status,
      createdAt: new Date(t.createdAt).toISOString(),
      ...(status === 'RUNNING' ? { progress: s.progress / 100 } : {}),
      ...(status === 'SUCCEEDED' ? { output: [storage.urlOf(t.id)] } : {}),
      ...failure,
    };
  };

  const create = (kind: 'image_to_video' | 'text_to_video') =>
    guarded((r, res) => {
      const body = readJson(r);
      if (!body || typeof body.model !== 'string')
        return sendJson(res, 400, errorBody(400, 'Validation of body failed: model is required.'));
      if (kind === 'image_to_video' && !body.promptImage)
        return sendJson(res, 400, errorBody(400, 'Validation of body failed: promptImage is required.'));
      if (kind === 'text_to_video' && typeof body.promptText !== 'string')
        return sendJson(res, 400, errorBody(400, 'Validation of body failed: promptText is required.'));
      if (typeof body.ratio !== 'string' || !/^\d+:\d+$/.test(body.ratio))
        return sendJson(res, 400, errorBody(400, 'Validation of body failed: ratio.'));
      const t = book.create(body.model, String(body.promptText ?? ''), { ...body, kind });
      sendJson(res, 200, { id: t.id });
    });

  const api = await startFakeHttp(
    [
      { kind: 'create', method: 'POST', pattern: /^\/v1\/image_to_video$/, handle: create('image_to_video') },
      { kind: 'create', method: 'POST', pattern: /^\/v1\/text_to_video$/, handle: create('text_to_video') },
      {
        kind: 'poll',
        method: 'GET',
        pattern: /^\/v1\/tasks\/([A-Za-z0-9_-]+)$/,
        handle: guarded((_r, res, m) => {
          const t = book.get(m[1]!);
          return t ? sendJson(res, 200, task(t)) : sendJson(res, 404, errorBody(404, 'Task not found.'));
        }),
      },
      {
        kind: 'cancel',
        method: 'DELETE',
        pattern: /^\/v1\/tasks\/([A-Za-z0-9_-]+)$/,
        handle: guarded((_r, res, m) => {
          const t = book.get(m[1]!);
          if (!t) return sendJson(res, 404, errorBody(404, 'Task not found.'));
          const s = book.state(t).state;
          if (s === 'queued' || s === 'running') t.cancelledAt = book.now();
          else t.deleted = true;
          res.writeHead(204);
          res.end();
        }),
      },
    ],
    errorBody,
  );

  return {
    apiKey,
    ...storedVideoUpstream({ api, storage, book }, (retryAfterSeconds) => ({
      status: 429,
      retryAfterSeconds,
      body: errorBody(429, 'You have exceeded the rate limit.'),
    })),
  };
}
