/**
 * A fake Ark content-generation task upstream: create, get, list (filter.task_ids), DELETE with Ark's
 * rules, and result URLs on a second "storage host" that stop working after `urlTtlMs` (Ark's 24 h).
 */
import {
  FakeTaskBook,
  readJson,
  sendBytes,
  sendJson,
  startFakeHttp,
  type FakeHttpRequest,
  type FakeHttpServer,
  type FakeTask,
  type FakeVideoOptions,
} from '@gateway/testkit';

export interface FakeArkOptions extends FakeVideoOptions {
  /** how long a result URL works (default 24 h) */
  urlTtlMs?: number;
}

export interface FakeArk {
  /** baseUrl as the Ark SDKs take it: ends in /api/v3 */
  url: string;
  apiKey: string;
  book: FakeTaskBook;
  api: FakeHttpServer;
  storage: FakeHttpServer;
  close(): Promise<void>;
}

const errorBody = (status: number, message: string) => ({
  error: {
    code:
      status === 429
        ? 'RateLimitExceeded'
        : status === 404
          ? 'ResourceNotFound'
          : status === 401
            ? 'AuthenticationError'
            : 'InvalidParameter',
    message,
    param: '',
    type: 'BadRequest',
  },
});

export async function startFakeArk(opts: FakeArkOptions = {}): Promise<FakeArk> {
  const apiKey = opts.apiKey ?? 'fake-ark-key-0001';
  const book = new FakeTaskBook(opts, 'cgt-');
  const ttl = opts.urlTtlMs ?? 24 * 3600_000;
  const authed = (r: FakeHttpRequest) => r.headers.authorization === `Bearer ${apiKey}`;
  const denied = (res: Parameters<typeof sendJson>[0]) => sendJson(res, 401, errorBody(401, 'The API key is invalid.'));

  const storage = await startFakeHttp(
    [
      {
        kind: 'storage',
        method: 'GET',
        pattern: /^\/ark\/(cgt-[a-z0-9]+)\.mp4$/,
        handle: (r, res, m) => {
          const t = book.get(m[1]!);
          const expires = Number(r.query.get('X-Expires'));
          if (!t) return sendJson(res, 404, { message: 'NoSuchKey' });
          if (!(expires > book.now())) return sendJson(res, 403, { message: 'Request has expired' });
          sendBytes(res, book.bytes(t));
        },
      },
    ],
    errorBody,
  );

  const finishedAt = (t: FakeTask) => t.createdAt + t.script.queuedMs + t.script.runningMs;
  const taskObject = (t: FakeTask) => {
    const s = book.state(t);
    const state = t.script.outcome === 'filtered' && s.state === 'failed' ? 'failed' : s.state;
    const error =
      state === 'failed'
        ? t.script.outcome === 'filtered'
          ? { code: 'OutputVideoSensitiveContentDetected', message: 'The fake review found sensitive content in the output.' }
          : {
              code: t.script.failCode ?? 'InternalServiceError',
              message: t.script.failMessage ?? 'The fake Ark upstream failed this task.',
            }
        : null;
    const b = t.body;
    return {
      id: t.id,
      model: t.model,
      status: state,
      error,
      content: state === 'succeeded' ? { video_url: `${storage.origin}/ark/${t.id}.mp4?X-Expires=${finishedAt(t) + ttl}` } : undefined,
      usage: state === 'succeeded' ? { completion_tokens: 108900, total_tokens: 108900 } : undefined,
      ...(!t.script.unstatedShape && {
        resolution: b.resolution ?? '720p',
        ratio: b.ratio === 'adaptive' || !b.ratio ? '16:9' : b.ratio,
        duration: t.script.deliveredSeconds ?? b.duration ?? 5,
        framespersecond: 24,
      }),
      created_at: Math.floor(t.createdAt / 1000),
      updated_at: Math.floor(book.now() / 1000),
    };
  };
  const base = '/api/v3/contents/generations/tasks';

  const api = await startFakeHttp(
    [
      {
        kind: 'create',
        method: 'POST',
        pattern: new RegExp(`^${base}$`),
        handle: (r, res) => {
          if (!authed(r)) return denied(res);
          const body = readJson(r);
          const content = body?.content as Array<Record<string, unknown>> | undefined;
          if (!body || typeof body.model !== 'string' || !Array.isArray(content))
            return sendJson(res, 400, errorBody(400, 'model and content are required.'));
          const text = content.find((c) => c.type === 'text')?.text;
          const t = book.create(body.model, typeof text === 'string' ? text : '', body);
          sendJson(res, 200, { id: t.id });
        },
      },
      {
        kind: 'poll',
        method: 'GET',
        pattern: new RegExp(`^${base}/(cgt-[a-z0-9]+)$`),
        handle: (r, res, m) => {
          if (!authed(r)) return denied(res);
          const t = book.get(m[1]!);
          return t ? sendJson(res, 200, taskObject(t)) : sendJson(res, 404, errorBody(404, `The task ${m[1]} was not found.`));
        },
      },
      {
        kind: 'list',
        method: 'GET',
        pattern: new RegExp(`^${base}$`),
        handle: (r, res) => {
          if (!authed(r)) return denied(res);
          const ids = r.query.getAll('filter.task_ids');
          const size = Math.min(500, Number(r.query.get('page_size') ?? 10));
          const found = (ids.length ? ids.map((id) => book.get(id)) : [...book.tasks.values()].filter((t) => !t.deleted)).filter(
            (t): t is FakeTask => Boolean(t),
          );
          sendJson(res, 200, { total: found.length, items: found.slice(0, size).map(taskObject) });
        },
      },
      {
        kind: 'cancel',
        method: 'DELETE',
        pattern: new RegExp(`^${base}/(cgt-[a-z0-9]+)$`),
        handle: (r, res, m) => {
          if (!authed(r)) return denied(res);
          const t = book.get(m[1]!);
          if (!t) return sendJson(res, 404, errorBody(404, `The task ${m[1]} was not found.`));
          const s = book.state(t).state;
          if (s === 'queued') t.cancelledAt = book.now();
          else if (s === 'succeeded' || s === 'failed' || s === 'expired') t.deleted = true;
          else return sendJson(res, 409, { error: { code: 'OperationDenied', message: `A ${s} task cannot be cancelled or deleted.` } });
          sendJson(res, 200, {});
        },
      },
    ],
    errorBody,
  );

  return {
    url: `${api.origin}/api/v3`,
    apiKey,
    book,
    api,
    storage,
    close: async () => {
      await Promise.all([api.close(), storage.close()]);
    },
  };
}
