/**
 * The "storage host" of the newer fake video upstreams (Kling, MiniMax, DashScope, Runway): a second
 * server on 127.0.0.1 that serves each finished task's MP4 at an unguessable path and records who came,
 * so a test can see that no upstream credential ever reached it.
 */
import { sendBytes, sendJson, startFakeHttp, type FakeHttpServer, type FakeTaskBook } from './fake-video-tasks';

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
