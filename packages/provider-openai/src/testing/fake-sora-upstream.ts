/** A fake OpenAI videos (Sora) upstream: multipart create, retrieve, content, delete. */
import {
  FakeTaskBook,
  readJson,
  readMultipart,
  sendBytes,
  sendJson,
  startFakeHttp,
  type FakeHttpRequest,
  type FakeHttpServer,
  type FakeTask,
  type FakeVideoOptions,
} from '@gateway/testkit';

export interface FakeSora {
  /** baseUrl as the openai SDK takes it: ends in /v1 */
  url: string;
  apiKey: string;
  book: FakeTaskBook;
  api: FakeHttpServer;
  close(): Promise<void>;
}

const errorBody = (status: number, message: string) => ({
  error: {
    message,
    type: status === 429 ? 'rate_limit_error' : 'invalid_request_error',
    param: null,
    code: status === 429 ? 'rate_limit_exceeded' : null,
  },
});

export async function startFakeSora(opts: FakeVideoOptions = {}): Promise<FakeSora> {
  const apiKey = opts.apiKey ?? 'fake-sora-key-0001';
  const book = new FakeTaskBook(opts, 'video_');
  const authed = (r: FakeHttpRequest) => r.headers.authorization === `Bearer ${apiKey}`;
  const denied = (res: Parameters<typeof sendJson>[0]) => sendJson(res, 401, errorBody(401, 'Incorrect API key provided.'));

  const videoObject = (t: FakeTask) => {
    const s = book.state(t);
    const status =
      s.state === 'queued' ? 'queued' : s.state === 'running' ? 'in_progress' : s.state === 'succeeded' ? 'completed' : 'failed';
    const error =
      status !== 'failed'
        ? null
        : s.state === 'expired'
          ? { code: 'video_generation_timeout', message: 'The fake Sora render timed out.' }
          : t.script.outcome === 'filtered'
            ? { code: 'moderation_blocked', message: 'The fake moderation blocked this video.' }
            : {
                code: t.script.failCode ?? 'video_generation_failed',
                message: t.script.failMessage ?? 'The fake Sora upstream failed this video.',
              };
    return {
      id: t.id,
      object: 'video',
      model: t.model,
      prompt: t.prompt,
      status,
      progress: s.progress,
      created_at: Math.floor(t.createdAt / 1000),
      completed_at: status === 'completed' ? Math.floor(book.now() / 1000) : null,
      expires_at: null,
      // the video object states its length and size (a shorter render when scripted); `[unstated]` leaves both out
      ...(!t.script.unstatedShape && {
        seconds: String(t.script.deliveredSeconds ?? t.body.seconds ?? '4'),
        size: String(t.body.size ?? '1280x720'),
      }),
      remixed_from_video_id: t.body.remixed_from_video_id ?? null,
      error,
    };
  };

  const api = await startFakeHttp(
    [
      {
        kind: 'create',
        method: 'POST',
        pattern: /^\/v1\/videos$/,
        handle: async (r, res) => {
          if (!authed(r)) return denied(res);
          if (!String(r.headers['content-type']).startsWith('multipart/form-data'))
            return sendJson(res, 400, errorBody(400, 'Expected multipart/form-data.'));
          const body = await readMultipart(r);
          if (typeof body.model !== 'string') return sendJson(res, 400, errorBody(400, 'model is required.'));
          const t = book.create(body.model, typeof body.prompt === 'string' ? body.prompt : '', body);
          sendJson(res, 200, videoObject(t));
        },
      },
      {
        // JSON {prompt}: a new video with the source's model, seconds and size
        kind: 'create',
        method: 'POST',
        pattern: /^\/v1\/videos\/(video_[a-z0-9]+)\/remix$/,
        handle: async (r, res, m) => {
          if (!authed(r)) return denied(res);
          const source = book.get(m[1]!);
          if (!source) return sendJson(res, 404, errorBody(404, `Video ${m[1]} not found.`));
          if (book.state(source).state !== 'succeeded') return sendJson(res, 400, errorBody(400, 'Only completed videos can be remixed.'));
          const body = readJson(r);
          if (typeof body?.prompt !== 'string' || !body.prompt) return sendJson(res, 400, errorBody(400, 'prompt is required.'));
          const t = book.create(source.model, body.prompt, {
            seconds: source.body.seconds,
            size: source.body.size,
            remixed_from_video_id: source.id,
          });
          sendJson(res, 200, videoObject(t));
        },
      },
      {
        kind: 'poll',
        method: 'GET',
        pattern: /^\/v1\/videos\/(video_[a-z0-9]+)$/,
        handle: (r, res, m) => {
          if (!authed(r)) return denied(res);
          const t = book.get(m[1]!);
          return t ? sendJson(res, 200, videoObject(t)) : sendJson(res, 404, errorBody(404, `Video ${m[1]} not found.`));
        },
      },
      {
        kind: 'content',
        method: 'GET',
        pattern: /^\/v1\/videos\/(video_[a-z0-9]+)\/content$/,
        handle: (r, res, m) => {
          if (!authed(r)) return denied(res);
          const t = book.get(m[1]!);
          if (!t || book.state(t).state !== 'succeeded') return sendJson(res, 404, errorBody(404, 'Video content is not available.'));
          if (r.query.get('variant') && r.query.get('variant') !== 'video') return sendJson(res, 404, errorBody(404, 'No such variant.'));
          sendBytes(res, book.bytes(t));
        },
      },
      {
        kind: 'cancel',
        method: 'DELETE',
        pattern: /^\/v1\/videos\/(video_[a-z0-9]+)$/,
        handle: (r, res, m) => {
          if (!authed(r)) return denied(res);
          const t = book.get(m[1]!);
          if (!t) return sendJson(res, 404, errorBody(404, `Video ${m[1]} not found.`));
          t.deleted = true;
          t.cancelledAt = book.now();
          sendJson(res, 200, { id: t.id, object: 'video.deleted', deleted: true });
        },
      },
    ],
    errorBody,
  );

  return { url: `${api.origin}/v1`, apiKey, book, api, close: () => api.close() };
}
