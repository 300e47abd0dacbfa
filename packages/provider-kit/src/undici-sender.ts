import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { CONNECT_TIMEOUT_CODE, type KeepAliveAgents } from './keep-alive-agents';

/** One request as the upstream client hands it to the sender: headers final. */
export interface SendRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  /** a JSON text, or a multipart form (the global FormData; files as Blob parts) */
  body?: string | FormData;
  /** connect only where the agents' hop lookup allows (a download hop off the upstream's own host) */
  checked?: boolean;
}

export interface SentResponse {
  status: number;
  headers: Record<string, string | undefined>;
  stream: Readable;
}

/** What ends a call from outside (CallGuard): it is handed the call's abort, and calls it at once if already over. */
export interface Abortable {
  onAbort(abort: (reason: Error) => void): void;
}

/** undici's error codes for what node's http client reports as these, so the failure table and messages stay one. */
const NODE_CODES: Record<string, string> = { UND_ERR_CONNECT_TIMEOUT: CONNECT_TIMEOUT_CODE, UND_ERR_SOCKET: 'ECONNRESET' };

function asNodeError(e: Error): Error {
  const code = NODE_CODES[(e as { code?: string }).code ?? ''];
  return code ? Object.assign(new Error(e.message, { cause: e }), { code }) : e;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const k in headers) {
    const v = headers[k];
    flat[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return flat;
}

/**
 * One call's undici handler: resolves with the status, the headers and the body as a Readable that pauses the socket
 * when its reader falls behind. Aborting needs no AbortSignal and no listener: the guard is handed `abort`, and a body
 * destroyed before its end aborts the request, which closes its socket rather than reuse it mid-response.
 */
class CallHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  /** aborted before it reached a socket */
  abortedEarly: Error | undefined;
  private body: Readable | undefined;
  private ended = false;

  constructor(
    private readonly resolve: (r: SentResponse) => void,
    private readonly reject: (e: Error) => void,
  ) {}

  readonly abort = (reason: Error): void => {
    if (this.controller) return this.controller.abort(reason);
    // not on a socket yet: fail now; the request is dropped when it gets one
    this.abortedEarly ??= reason;
    this.reject(reason);
  };

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortedEarly) controller.abort(this.abortedEarly);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    this.body = new Readable({
      read: () => controller.resume(),
      destroy: (e, done) => {
        if (!this.ended) controller.abort(e ?? new Error('upstream body abandoned'));
        done(e);
      },
    });
    this.resolve({ status, headers: flatHeaders(headers), stream: this.body });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.body!.push(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.body!.push(null);
  }

  onResponseError(_controller: Dispatcher.DispatchController, e: Error): void {
    this.ended = true;
    if (this.body) this.body.destroy(asNodeError(e));
    else this.reject(asNodeError(e));
  }
}

/**
 * A form encoded as fetch would send it: the body with its length, and the content type carrying the boundary.
 * Its parts are Blobs already in memory, so encoding it whole costs one copy and sends an exact content-length.
 */
async function encodeForm(form: FormData): Promise<{ bytes: Buffer; contentType: string }> {
  const encoded = new Response(form);
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/**
 * The upstream client's sender: undici's keep-alive pools (docs/adr/0006-undici-upstream-sender.md). It follows no
 * redirects (the client checks each download hop), asks for no compression (so nothing needs decompressing) and hands
 * back the body unread, whatever the status.
 */
export function send(agents: KeepAliveAgents, r: SendRequest, guard: Abortable): Promise<SentResponse> {
  if (r.body === undefined || typeof r.body === 'string') return dispatch(agents, r, r.headers, r.body, guard);
  return encodeForm(r.body).then((form) => dispatch(agents, r, { ...r.headers, 'content-type': form.contentType }, form.bytes, guard));
}

function dispatch(
  agents: KeepAliveAgents,
  r: SendRequest,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  guard: Abortable,
): Promise<SentResponse> {
  return new Promise((resolve, reject) => {
    const handler = new CallHandler(resolve, reject);
    guard.onAbort(handler.abort);
    if (!handler.abortedEarly)
      agents.dispatch(
        r.checked ?? false,
        { origin: r.url.origin, path: r.url.pathname + r.url.search, method: r.method, headers, body },
        handler,
      );
  });
}
