/**
 * A fake Kling AI video upstream: text2video / image2video create and read with Kling's envelope
 * `{code, message, request_id, data}`, JWT (HS256, iss = access key) checked on every call with Kling's
 * 401 codes (1000–1004), 429 with code 1302, result URLs on a storage host. Kling has no cancel route.
 */
import { randomUUID } from 'node:crypto';
import { verifyHs256 } from './fake-jwt';
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

/** baseUrl as Kling's docs give it (no /v1); its rate limit answers 429 code 1302 */
export interface FakeKling extends FakeStoredVideoUpstream {
  accessKey: string;
  secretKey: string;
}

type Res = Parameters<typeof sendJson>[0];

/** Kling's envelope for errors: HTTP status and a numeric service code. */
const errorBody = (status: number, message: string, code?: number) => ({
  code: code ?? (status === 429 ? 1302 : status === 401 ? 1000 : status === 404 ? 1203 : status >= 500 ? 5000 : 1201),
  message,
  request_id: randomUUID(),
});

export interface FakeKlingOptions extends FakeVideoOptions {
  accessKey?: string;
  secretKey?: string;
  /** wall clock for token checks (JWT times are real seconds), default Date.now */
  tokenNow?: () => number;
}

export async function startFakeKling(opts: FakeKlingOptions = {}): Promise<FakeKling> {
  const accessKey = opts.accessKey ?? 'fake-kling-access-0001';
  const secretKey = opts.secretKey ?? 'fake-kling-secret-0001-do-not-leak';
  const tokenNow = opts.tokenNow ?? Date.now;
  const book = new FakeTaskBook(opts, 'kt');
  const storage = await startFakeVideoStorage(book);

  /** null when the bearer JWT is good; else the 401 it earns */
  const authFailure = (r: FakeHttpRequest): { code: number; message: string } | null => {
    const h = String(r.headers.authorization ?? '');
    if (!h) return { code: 1001, message: 'Authorization is empty' };
    if (!h.startsWith('Bearer ')) return { code: 1002, message: 'Authorization is invalid' };
    const v = verifyHs256(h.slice(7), secretKey, accessKey, Math.floor(tokenNow() / 1000));
    if (v.ok) return null;
    if (v.why === 'not_yet_valid') return { code: 1003, message: 'Authorization is not yet valid' };
    if (v.why === 'expired') return { code: 1004, message: 'Authorization has expired' };
    return { code: 1002, message: 'Authorization is invalid' };
  };
  const guarded =
    (handle: (r: FakeHttpRequest, res: Res, m: RegExpExecArray) => void) => (r: FakeHttpRequest, res: Res, m: RegExpExecArray) => {
      const denied = authFailure(r);
      if (denied) return sendJson(res, 401, errorBody(401, denied.message, denied.code));
      handle(r, res, m);
    };

  const taskData = (t: FakeTask) => {
    const s = book.state(t).state;
    const status = s === 'queued' ? 'submitted' : s === 'running' ? 'processing' : s === 'succeeded' ? 'succeed' : 'failed';
    const msg =
      status !== 'failed'
        ? ''
        : t.script.outcome === 'filtered'
          ? 'Failure to pass the risk control system'
          : s === 'expired'
            ? 'Task timed out'
            : (t.script.failMessage ?? 'The fake Kling upstream failed this task.');
    return {
      task_id: t.id,
      task_status: status,
      task_status_msg: msg,
      task_info: {},
      created_at: t.createdAt,
      updated_at: book.now(),
      ...(status === 'succeed'
        ? {
            task_result: {
              videos: [
                {
                  id: randomUUID(),
                  url: storage.urlOf(t.id),
                  // Kling states the rendered length only; `[unstated]` leaves it out
                  ...(!t.script.unstatedShape && { duration: String(t.script.deliveredSeconds ?? t.body.duration ?? '5') }),
                },
              ],
            },
          }
        : {}),
    };
  };
  const ok = (res: Res, data: unknown) => sendJson(res, 200, { code: 0, message: 'SUCCEED', request_id: randomUUID(), data });

  const create = (kind: 'text2video' | 'image2video') =>
    guarded((r, res) => {
      const body = readJson(r);
      if (!body) return sendJson(res, 400, errorBody(400, 'Request body is not valid JSON', 1200));
      if (kind === 'text2video' && (typeof body.prompt !== 'string' || !body.prompt))
        return sendJson(res, 400, errorBody(400, 'prompt is required', 1201));
      if (kind === 'image2video' && (typeof body.image !== 'string' || !body.image))
        return sendJson(res, 400, errorBody(400, 'image is required', 1201));
      if (typeof body.image === 'string' && body.image.startsWith('data:'))
        return sendJson(res, 400, errorBody(400, 'image must be Base64 without a data: prefix, or a URL', 1201));
      if (body.duration !== undefined && !['5', '10'].includes(String(body.duration)))
        return sendJson(res, 400, errorBody(400, 'duration must be 5 or 10', 1201));
      const t = book.create(String(body.model_name ?? 'kling-v1'), String(body.prompt ?? ''), { ...body, kind });
      ok(res, taskData(t));
    });
  const read = (kind: string) =>
    guarded((_r, res, m) => {
      const t = book.get(m[1]!);
      if (!t || t.body.kind !== kind) return sendJson(res, 404, errorBody(404, `task ${m[1]} not found`, 1203));
      ok(res, taskData(t));
    });

  const api = await startFakeHttp(
    [
      { kind: 'create', method: 'POST', pattern: /^\/v1\/videos\/text2video$/, handle: create('text2video') },
      { kind: 'create', method: 'POST', pattern: /^\/v1\/videos\/image2video$/, handle: create('image2video') },
      { kind: 'poll', method: 'GET', pattern: /^\/v1\/videos\/text2video\/([A-Za-z0-9_-]+)$/, handle: read('text2video') },
      { kind: 'poll', method: 'GET', pattern: /^\/v1\/videos\/image2video\/([A-Za-z0-9_-]+)$/, handle: read('image2video') },
    ],
    (status, message) => errorBody(status, message),
  );

  return {
    accessKey,
    secretKey,
    ...storedVideoUpstream({ api, storage, book }, (retryAfterSeconds) => ({
      status: 429,
      retryAfterSeconds,
      body: errorBody(429, 'API request too fast, please slow down', 1302),
    })),
  };
}
