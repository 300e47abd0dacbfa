/**
 * The "storage host" of the newer fake video upstreams (Kling, MiniMax, DashScope, Runway): a second
 * server on 127.0.0.1 that serves each finished task's MP4 at an unguessable path and records who came,
 * so a test can see that no upstream credential ever reached it.
 */
import {
  sendBytes,
  sendJson,
  startFakeHttp,
  type FakeFailure,
  type FakeHttpServer,
  type FakeRouteKind,
  type FakeTaskBook,
} from './fake-video-tasks';

export interface FakeVideoStorage {
  server: FakeHttpServer;
  /** the download URL of a task's video */
  urlOf(taskId: string): string;
  /** storage requests that carried any credential header (must stay 0) */
  credentialsSeen(): number;
  close(): Promise<void>;
}

export async function startFakeVideoStorage(book: FakeTaskBook): Promise<FakeVideoStorage> {
  const server = await startFakeHttp(
    [
      {
        kind: 'storage',
        method: 'GET',
        pattern: /^\/media\/([A-Za-z0-9_-]+)\.mp4$/,
        handle: (_r, res, m) => {
          const t = book.get(m[1]!);
          if (!t || book.state(t).state !== 'succeeded') return sendJson(res, 404, { message: 'NoSuchKey' });
          sendBytes(res, book.bytes(t));
        },
      },
    ],
    (_status, message) => ({ message }),
  );
  const credentialHeaders = ['authorization', 'x-api-key', 'x-goog-api-key'];
  return {
    server,
    urlOf: (id) => `${server.origin}/media/${id}.mp4?sig=fake`,
    credentialsSeen: () => server.requests.filter((r) => credentialHeaders.some((h) => r.headers[h] !== undefined)).length,
    close: () => server.close(),
  };
}

/** What a fake video upstream that serves its videos from a FakeVideoStorage shows its tests. */
export interface FakeStoredVideoUpstream {
  /** baseUrl as the upstream's SDKs or docs take it */
  url: string;
  book: FakeTaskBook;
  api: FakeHttpServer;
  storage: FakeVideoStorage;
  /** the next request of a kind answers the upstream's rate-limit error (with Retry-After where it sends one) */
  rateLimitNext(kind: FakeRouteKind, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

/** The handle over a fake's API and storage servers; `rateLimited` is the answer its rate limit gives. */
export function storedVideoUpstream(
  parts: { api: FakeHttpServer; storage: FakeVideoStorage; book: FakeTaskBook; url?: string },
  rateLimited: (retryAfterSeconds?: number) => FakeFailure,
): FakeStoredVideoUpstream {
  const { api, storage } = parts;
  return {
    ...parts,
    url: parts.url ?? api.origin,
    rateLimitNext: (kind, retryAfterSeconds) => api.failNext(kind, 1, rateLimited(retryAfterSeconds)),
    close: async () => {
      await Promise.all([api.close(), storage.close()]);
    },
  };
}
