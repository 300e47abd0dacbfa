import dns from 'node:dns';
import net from 'node:net';
import { GatewayError, isForbiddenAddress } from '@gateway/core';
import { CallGuard } from './call-guard';
import { createKeepAliveAgents, type HopLookup, type KeepAliveAgents } from './keep-alive-agents';
import { send, type SendRequest, type SentResponse } from './undici-sender';
import type { UpstreamFailure } from './upstream-errors';
import { UpstreamResponse } from './upstream-response';
import type { UpstreamSchema } from './upstream-schema';
import { resolveTimeouts, type UpstreamTimeouts } from './upstream-timeouts';

export interface UpstreamClientConfig {
  /** as the provider's own SDK takes it; request paths are appended */
  baseUrl: string;
  /** sent on every request to the base URL's origin (auth, version headers) */
  headers?: Record<string, string>;
  timeouts?: UpstreamTimeouts;
  /** response headers carrying the upstream request id; the first present wins */
  requestIdHeaders?: string[];
  /** a non-2xx answer → GatewayError: the provider's `<p>-error.ts` */
  describeFailure?: (f: UpstreamFailure) => GatewayError;
  /** sockets open to the upstream at once (default 256) */
  maxSockets?: number;
}

/** One request to the upstream's API. */
export interface UpstreamCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** appended to the base URL */
  path: string;
  /** a JSON body, or a multipart form (the global FormData; files as Blob parts) */
  json?: unknown;
  form?: FormData;
  /** repeated keys as arrays: `k=a&k=b` */
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const MAX_REDIRECTS = 5;

function forbiddenHop(): GatewayError {
  return new GatewayError('upstream_error', "The upstream's result link points to a private, loopback or otherwise non-public address.", {
    code: 'upstream_forbidden_address',
  });
}

/**
 * Where a download hop off the upstream's own host may connect: the host's addresses, refused when any is private (the
 * upstream's zone, not us, decides which one a retry would get).
 */
const publicLookup: HopLookup = async (hostname) => {
  const addresses = await dns.promises.lookup(hostname, { all: true });
  const [first] = addresses;
  if (!first || addresses.some((a) => isForbiddenAddress(a.address))) throw forbiddenHop();
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
};

function withQuery(url: string, query: UpstreamCall['query']): string {
  if (!query) return url;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) q.append(k, one);
  const text = q.toString();
  return text ? `${url}?${text}` : url;
}

/**
 * The HTTP client every outbound adapter uses. Per provider: keep-alive agents (their socket cap bounds
 * the calls in flight to one upstream), four timeouts (call-guard.ts), bodies read as streams through the
 * response's handlers, non-2xx answers mapped by the provider's describeFailure, upstream request ids read.
 * Every call, form and download goes through undici (undici-sender.ts, docs/adr/0006).
 * It redacts nothing: every error and answer leaves the adapter through the redacting ports (redacting-ports.ts).
 */
export class UpstreamClient {
  private readonly agents: KeepAliveAgents;
  private readonly timeouts: Required<UpstreamTimeouts>;
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly host: string;

  constructor(private readonly config: UpstreamClientConfig) {
    this.timeouts = resolveTimeouts(config.timeouts);
    this.agents = createKeepAliveAgents(this.timeouts.connectMs, publicLookup, config.maxSockets);
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.host = new URL(this.baseUrl).hostname.replace(/^\[|\]$/g, '');
  }

  /** Resolves on a 2xx with the body unread (read it with a handler); anything else is thrown as a GatewayError. */
  async request(call: UpstreamCall): Promise<UpstreamResponse> {
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', ...this.config.headers, ...call.headers };
    let body: SendRequest['body'];
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    } else if (call.form) {
      body = call.form; // the sender encodes it and sets the content type with its boundary
    }
    const url = new URL(withQuery(this.baseUrl + call.path, call.query));
    const res = await this.send({ method: call.method, url, headers, body }, call.signal);
    if (res.status >= 200 && res.status < 300) return res;
    throw await res.failure(this.config.describeFailure);
  }

  /** request() read by the JSON handler. */
  async json<T>(call: UpstreamCall, schema: UpstreamSchema<T>, what: string): Promise<T> {
    return (await this.request(call)).json(schema, what);
  }

  /**
   * GETs a URL the upstream handed out (a result file), following redirects. The configured headers
   * (the API key) go only to the base URL's own origin: a redirect to a storage host, or a link on
   * another host, is fetched without them.
   */
  async download(url: string, opts: { signal?: AbortSignal } = {}): Promise<UpstreamResponse> {
    let target = new URL(url, this.baseUrl + '/');
    for (let hop = 0; ; hop++) {
      const own = target.origin === this.origin;
      const res = await this.send(
        {
          method: 'GET',
          url: target,
          headers: { accept: '*/*', ...(own ? this.config.headers : {}) },
          checked: this.checkedHop(target),
        },
        opts.signal,
      );
      const location = res.headers.location;
      if (res.status >= 300 && res.status < 400 && location) {
        res.close();
        if (hop >= MAX_REDIRECTS)
          throw new GatewayError('upstream_error', 'The upstream redirected a download too many times.', {
            code: 'upstream_redirect_loop',
            upstreamStatus: res.status,
          });
        target = new URL(location, target);
        if (target.protocol !== 'https:' && target.protocol !== 'http:') {
          throw new GatewayError('upstream_error', 'The upstream redirected a download to an unsupported scheme.', {
            code: 'upstream_redirect',
            upstreamStatus: res.status,
          });
        }
        continue;
      }
      if (res.status >= 200 && res.status < 300) return res;
      // A result link that is gone stays gone: retrying cannot bring back an expired presigned URL.
      if (res.status === 404 || res.status === 410 || (res.status === 403 && !own)) {
        res.close();
        throw new GatewayError(
          'upstream_error',
          `The upstream's result file is no longer available (HTTP ${res.status}); its download link may have expired.`,
          { code: 'upstream_result_gone', upstreamStatus: res.status },
        );
      }
      throw await res.failure(this.config.describeFailure);
    }
  }

  /**
   * Whether a download hop must connect through publicLookup. The configured upstream's own host is the operator's
   * choice and trusted; any other host (a storage link, a redirect) is an address the upstream chose, so it must be
   * public, like any fetch on someone else's say-so. Checked in the connection's own lookup, so the address checked is
   * the address used; an address written in the link is checked here.
   */
  private checkedHop(target: URL): boolean {
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (host === this.host) return false;
    if (!net.isIP(host)) return true;
    if (isForbiddenAddress(host)) throw forbiddenHop();
    return false;
  }

  /** Sends one request under a fresh CallGuard; resolves when the headers arrived, whatever the status. */
  private async send(r: SendRequest, signal: AbortSignal | undefined): Promise<UpstreamResponse> {
    const guard = new CallGuard(this.timeouts, signal);
    let res: SentResponse;
    try {
      res = await send(this.agents, r, guard);
    } catch (e) {
      guard.finish();
      throw guard.translate(e);
    }
    const requestId = (this.config.requestIdHeaders ?? ['x-request-id']).map((h) => res.headers[h]).find(Boolean);
    guard.headersReceived();
    return new UpstreamResponse(res.status, res.headers, requestId, res.stream, guard);
  }

  /** Closes every keep-alive socket now (process shutdown, tests). */
  destroy(): void {
    this.agents.destroy();
  }

  /** Retired by a config reload: idle sockets close now, the rest once the calls in flight end. */
  drain(): void {
    this.agents.drain();
  }
}
