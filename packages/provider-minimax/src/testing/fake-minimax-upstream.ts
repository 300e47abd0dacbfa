/**
 * A fake MiniMax (Hailuo) video upstream: create, query, file retrieve. Like the real API it answers
 * most failures with HTTP 200 and `base_resp.status_code` (1002 rate limit, 1004 auth, 1026/1027
 * sensitive content, 2013 invalid params); result files are fetched through `download_url` on a storage host.
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

/** baseUrl as MiniMax's docs give it (no /v1); its rate limit answers HTTP 200 with base_resp 1002, no Retry-After */
export interface FakeMiniMax extends FakeStoredVideoUpstream {
  apiKey: string;
}

type Res = Parameters<typeof sendJson>[0];

const baseResp = (status_code: number, status_msg: string) => ({ base_resp: { status_code, status_msg } });
const errorBody = (status: number, message: string) =>
  baseResp(status === 429 ? 1002 : status === 401 ? 1004 : status >= 500 ? 1000 : 2013, message);

/** file ids are int64 upstream: the fake derives a stable decimal one per task */
const fileIdOf = (t: FakeTask) => String(1_000_000 + [...t.id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000_000_007, 7));

export async function startFakeMiniMax(opts: FakeVideoOptions = {}): Promise<FakeMiniMax> {
  const apiKey = opts.apiKey ?? 'fake-minimax-key-0001';
  const book = new FakeTaskBook(opts, '');
  const storage = await startFakeVideoStorage(book);
  const authed = (r: FakeHttpRequest) => r.headers.authorization === `Bearer ${apiKey}`;
  const guarded = (handle: (r: FakeHttpRequest, res: Res) => void) => (r: FakeHttpRequest, res: Res) =>
    authed(r)
      ? handle(r, res)
      : sendJson(res, 200, baseResp(1004, 'login fail: Please carry the API secret key in the Authorization field'));

  const byFileId = (fileId: string) => [...book.tasks.values()].find((t) => !t.deleted && fileIdOf(t) === fileId);

  const query = (t: FakeTask) => {
    const s = book.state(t);
    const status =
      s.state === 'queued'
        ? book.now() - t.createdAt < t.script.queuedMs / 2
          ? 'Preparing'
          : 'Queueing'
        : s.state === 'running'
          ? 'Processing'
          : s.state === 'succeeded'
            ? 'Success'
            : 'Fail';
    const filtered = status === 'Fail' && t.script.outcome === 'filtered';
    return {
      task_id: t.id,
      status,
      file_id: status === 'Success' ? fileIdOf(t) : '',
      // MiniMax states the pixel size (never the length); `[unstated]` leaves it out
      ...(status === 'Success' && !t.script.unstatedShape ? { video_width: 1366, video_height: 768 } : {}),
      ...(filtered
        ? baseResp(1027, 'output video sensitive')
        : status === 'Fail'
          ? baseResp(0, t.script.failMessage ?? 'The fake MiniMax upstream failed this task.')
          : baseResp(0, 'success')),
    };
  };

  const api = await startFakeHttp(
    [
      {
        kind: 'create',
        method: 'POST',
        pattern: /^\/v1\/video_generation$/,
        handle: guarded((r, res) => {
          const body = readJson(r);
          if (!body || typeof body.model !== 'string') return sendJson(res, 200, baseResp(2013, 'invalid params, model is required'));
          if (!body.prompt && !body.first_frame_image) return sendJson(res, 200, baseResp(2013, 'invalid params, prompt is required'));
          if (body.duration !== undefined && ![6, 10].includes(Number(body.duration)))
            return sendJson(res, 200, baseResp(2013, 'invalid params, duration'));
          const t = book.create(body.model, String(body.prompt ?? ''), body);
          sendJson(res, 200, { task_id: t.id, ...baseResp(0, 'success') });
        }),
      },
      {
        kind: 'poll',
        method: 'GET',
        pattern: /^\/v1\/query\/video_generation$/,
        handle: guarded((r, res) => {
          const t = book.get(r.query.get('task_id') ?? '');
          return t
            ? sendJson(res, 200, query(t))
            : sendJson(res, 200, { task_id: r.query.get('task_id'), status: '', ...baseResp(2013, 'invalid params, task not found') });
        }),
      },
      {
        kind: 'content',
        method: 'GET',
        pattern: /^\/v1\/files\/retrieve$/,
        handle: guarded((r, res) => {
          const t = byFileId(r.query.get('file_id') ?? '');
          if (!t || book.state(t).state !== 'succeeded') return sendJson(res, 200, baseResp(2013, 'invalid params, file not found'));
          const bytes = book.bytes(t).length;
          sendJson(res, 200, {
            file: {
              file_id: Number(fileIdOf(t)),
              bytes,
              created_at: Math.floor(book.now() / 1000),
              filename: 'output_aigc.mp4',
              purpose: 'video_generation',
              download_url: storage.urlOf(t.id),
            },
            ...baseResp(0, 'success'),
          });
        }),
      },
    ],
    errorBody,
  );

  return {
    apiKey,
    ...storedVideoUpstream({ api, storage, book }, () => ({ status: 200, body: baseResp(1002, 'rate limit exceeded') })),
  };
}
