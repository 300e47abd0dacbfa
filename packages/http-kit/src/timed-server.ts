import http from 'node:http';
import type { RequestListener } from 'node:http';
import type { Socket } from 'node:net';

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

/**
 * Request and response classes whose instances start with an express app's own prototypes (`app.request`,
 * `app.response`), so that express's per-request `Object.setPrototypeOf` finds them set and changes nothing (V8 then
 * keeps each object's first shape). Anything else than an express app gets node's own classes.
 */
export function appMessageClasses(app: RequestListener): Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  const { request, response } = app as Partial<Record<'request' | 'response', object>>;
  if (!request || !response) return {};
  function Request(this: http.IncomingMessage, socket: Socket) {
    http.IncomingMessage.call(this, socket);
  }
  function Response(this: http.ServerResponse, req: http.IncomingMessage, options?: object) {
    (http.ServerResponse as unknown as (req: http.IncomingMessage, options?: object) => void).call(this, req, options);
  }
  Request.prototype = request;
  Response.prototype = response;
  return {
    IncomingMessage: Request as unknown as typeof http.IncomingMessage,
    ServerResponse: Response as unknown as typeof http.ServerResponse,
  };
}

/** An HTTP server with the timeouts applied; node checks them on an interval, kept well under the shortest one. */
export function createTimedServer(app: RequestListener, t: ListenTimeouts = DEFAULT_LISTEN_TIMEOUTS): http.Server {
  const server = http.createServer(
    {
      headersTimeout: t.headersMs,
      requestTimeout: t.requestMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(t.headersMs / 4))),
      ...appMessageClasses(app),
    },
    app,
  );
  server.keepAliveTimeout = t.keepAliveMs;
  return server;
}
