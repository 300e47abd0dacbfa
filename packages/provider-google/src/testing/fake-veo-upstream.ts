/**
 * A fake Gemini API Veo upstream: predictLongRunning, the operation, and the file download, which can
 * answer with a redirect to a second "storage host" server that records which headers reached it.
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

export interface FakeVeoOptions extends FakeVideoOptions {
  /** the download answers 302 to the storage host (as the real API does) */
  redirectDownloads?: boolean;
}

export interface FakeVeo {
  /** baseUrl as the @google/genai SDK (and the provider config) takes it: no /v1beta */
  url: string;
  apiKey: string;
  book: FakeTaskBook;
  api: FakeHttpServer;
  storage: FakeHttpServer;
  /** storage-host requests that carried an API key header (must stay 0) */
  keysSeenByStorage(): number;
  close(): Promise<void>;
}

const errorBody = (status: number, message: string) => ({
  error: {
    code: status,
    message,
    status: status === 429 ? 'RESOURCE_EXHAUSTED' : status === 404 ? 'NOT_FOUND' : status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT',
  },
});

/** The Gemini API's Veo rules the fake enforces (docs/providers/veo.md): what a real call would refuse with 400. */
function veoParameterProblem(model: string, instance: Record<string, unknown>, p: Record<string, unknown>): string | undefined {
  const veo2 = /veo-2/.test(model);
  const refs = Array.isArray(instance.referenceImages) ? instance.referenceImages : [];
  const seconds = p.durationSeconds ?? 8;
  if (!veo2 && ![4, 6, 8].includes(Number(seconds))) return 'durationSeconds must be 4, 6 or 8.';
  if (!veo2 && (p.resolution === '1080p' || p.resolution === '4k' || refs.length) && Number(seconds) !== 8)
    return '1080p, 4k and reference images need durationSeconds 8.';
  if (refs.length > 3) return 'At most 3 reference images.';
  if (refs.some((r) => (r as Record<string, unknown>)?.referenceType !== 'asset')) return 'referenceType must be asset.';
  if (p.personGeneration === 'allow_all' && (instance.image || refs.length)) return 'allow_all is for text-to-video only.';
  if ('generateAudio' in p) return 'generateAudio parameter is not supported in Gemini API.';
  return undefined;
}

export async function startFakeVeo(opts: FakeVeoOptions = {}): Promise<FakeVeo> {
  const apiKey = opts.apiKey ?? 'fake-veo-key-0001';
  const book = new FakeTaskBook(opts, 'veo');
  const authed = (r: FakeHttpRequest) => r.headers['x-goog-api-key'] === apiKey;
  const denied = (res: Parameters<typeof sendJson>[0]) => sendJson(res, 401, errorBody(401, 'API key not valid.'));

  const storage = await startFakeHttp(
    [
      {
        kind: 'storage',
        method: 'GET',
        pattern: /^\/blob\/([a-z0-9]+)\.mp4$/,
        handle: (_r, res, m) => {
          const t = book.get(m[1]!);
          return t ? sendBytes(res, book.bytes(t)) : sendJson(res, 404, errorBody(404, 'No such object.'));
        },
      },
    ],
    errorBody,
  );

  let origin = '';
  const operation = (t: FakeTask) => {
    const name = `models/${t.model}/operations/${t.id}`;
    const s = book.state(t);
    if (s.state === 'queued' || s.state === 'running')
      return {
        name,
        done: false,
        metadata: { '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningMetadata' },
      };
    if (s.state === 'succeeded') {
      const uri = `${origin}/v1beta/files/${t.id}:download?alt=media`;
      return {
        name,
        done: true,
        response: {
          '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
          generateVideoResponse: { generatedSamples: [{ video: { uri } }] },
        },
      };
    }
    if (t.script.outcome === 'filtered') {
      return {
        name,
        done: true,
        response: {
          generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['The fake safety filter blocked this video.'] },
        },
      };
    }
    if (s.state === 'expired')
      return { name, done: true, error: { code: 4, status: 'DEADLINE_EXCEEDED', message: 'The fake Veo operation ran out of time.' } };
    return {
      name,
      done: true,
      error: {
        code: 3,
        status: t.script.failCode ?? 'INVALID_ARGUMENT',
        message: t.script.failMessage ?? 'The fake Veo upstream failed this video.',
      },
    };
  };

  const api = await startFakeHttp(
    [
      {
        kind: 'create',
        method: 'POST',
        pattern: /^\/v1beta\/models\/([^/:]+):predictLongRunning$/,
        handle: (r, res, m) => {
          if (!authed(r)) return denied(res);
          const body = readJson(r);
          const instance = (body?.instances as Array<Record<string, unknown>> | undefined)?.[0];
          if (!body || !instance) return sendJson(res, 400, errorBody(400, 'instances[0] is required.'));
          const refused = veoParameterProblem(m[1]!, instance, (body.parameters ?? {}) as Record<string, unknown>);
          if (refused) return sendJson(res, 400, errorBody(400, refused));
          const t = book.create(m[1]!, typeof instance.prompt === 'string' ? instance.prompt : '', body);
          sendJson(res, 200, { name: `models/${t.model}/operations/${t.id}` });
        },
      },
      {
        kind: 'poll',
        method: 'GET',
        pattern: /^\/v1beta\/models\/([^/]+)\/operations\/([a-z0-9]+)$/,
        handle: (r, res, m) => {
          if (!authed(r)) return denied(res);
          const t = book.get(m[2]!);
          return t ? sendJson(res, 200, operation(t)) : sendJson(res, 404, errorBody(404, 'Operation not found.'));
        },
      },
      {
        kind: 'content',
        method: 'GET',
        pattern: /^\/v1beta\/files\/([a-z0-9]+):download$/,
        handle: (r, res, m) => {
          if (!authed(r)) return denied(res);
          const t = book.get(m[1]!);
          if (!t || book.state(t).state !== 'succeeded') return sendJson(res, 404, errorBody(404, 'File not found.'));
          if (!opts.redirectDownloads) return sendBytes(res, book.bytes(t));
          res.writeHead(302, { location: `${storage.origin}/blob/${t.id}.mp4` });
          res.end();
        },
      },
    ],
    errorBody,
  );
  origin = api.origin;

  return {
    url: api.origin,
    apiKey,
    book,
    api,
    storage,
    keysSeenByStorage: () =>
      storage.requests.filter((r) => r.headers['x-goog-api-key'] !== undefined || r.headers.authorization !== undefined).length,
    close: async () => {
      await Promise.all([api.close(), storage.close()]);
    },
  };
}
