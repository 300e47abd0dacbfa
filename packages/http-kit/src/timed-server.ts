import http from 'node:http';
import type { RequestListener } from 'node:http';

/**
 * How long a client may take to send its request. A client that trickles its headers or body holds a
 * socket and parser memory: these bound it. Streamed answers are not limited by them (they bound the
 * request, not the response).
 */
export interface ListenTimeouts {
  /** HTTP_HEADERS_TIMEOUT_MS: the whole header block */
  headersMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: the whole request, body included (large uploads on slow links need room) */
  requestMs: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: an idle kept-alive connection between requests */
  keepAliveMs: number;
}

export const DEFAULT_LISTEN_TIMEOUTS: ListenTimeouts = Object.freeze({ headersMs: 20_000, requestMs: 120_000, keepAliveMs: 5_000 });

/** An HTTP server with the timeouts applied; node checks them on an interval, kept well under the shortest one. */
export function createTimedServer(app: RequestListener, t: ListenTimeouts = DEFAULT_LISTEN_TIMEOUTS): http.Server {
  const server = http.createServer(
    {
      headersTimeout: t.headersMs,
      requestTimeout: t.requestMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(t.headersMs / 4))),
    },
    app,
  );
  server.keepAliveTimeout = t.keepAliveMs;
  return server;
}
