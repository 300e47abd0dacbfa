import type { AxiosInstance, AxiosResponse } from 'axios';
import type { Readable } from 'node:stream';
import dns from 'node:dns';
import net from 'node:net';
import { GatewayError, isForbiddenAddress, isGatewayError } from '@gateway/core';
import { CallGuard } from './call-guard';
import { createUpstreamAxios, describeUpstreamFailure, flatHeaders, redactSecrets } from './upstream-common';
import { createKeepAliveAgents, type KeepAliveAgents } from './keep-alive-agents';
import { resolveTimeouts, type UpstreamTimeouts } from './upstream-timeouts';
import { UpstreamResponse, type TransportConfig } from './upstream-transport';
import type { UpstreamSchema } from './upstream-schema';

/** One request of a task-style upstream API (create / read / cancel / download). */
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

type HopLookup = (hostname: string, options: object) => Promise<{ address: string; family: 4 | 6 }>;

function forbiddenHop(): GatewayError {
  return new GatewayError('upstream_error', "The upstream's result link points to a private, loopback or otherwise non-public address.", {
    code: 'upstream_forbidden_address',
  });
}

/**
 * The HTTP client of the asynchronous (video) adapters: GET, DELETE, JSON and multipart POST, and
 * downloads of URLs the upstream hands out. Same rules as UpstreamTransport: keep-alive agents per
 * provider (their socket cap bounds the calls in flight to one upstream), bodies read as streams, four
 * timeouts, non-2xx answers mapped by the provider's own describeFailure, keys redacted from messages.
 */
export class UpstreamHttp {
  private readonly http: AxiosInstance;
  private readonly agents: KeepAliveAgents;
  private readonly timeouts: Required<UpstreamTimeouts>;
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly host: string;

  constructor(private readonly config: TransportConfig & { maxSockets?: number }) {
    this.timeouts = resolveTimeouts(config.timeouts);
    this.agents = createKeepAliveAgents(this.timeouts.connectMs, config.maxSockets);
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.host = new URL(this.baseUrl).hostname.replace(/^\[|\]$/g, '');
    // `filter.task_ids=a&filter.task_ids=b`, not axios's default `filter.task_ids[]=a`
    this.http = createUpstreamAxios(this.agents, { paramsSerializer: { indexes: null } });
  }

  /** Resolves on a 2xx with the body unread; anything else is thrown as a GatewayError. */
  async request(call: UpstreamCall): Promise<UpstreamResponse> {
    const res = await this.send(this.baseUrl + call.path, call, true);
    if (res.status >= 200 && res.status < 300) return res;
    throw await this.failure(res);
  }

  /** request() and its body as JSON checked against the upstream's minimal schema. */
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
      const res = await this.send(
        target.toString(),
        { method: 'GET', path: '', signal: opts.signal },
        target.origin === this.origin,
        this.hopLookup(target),
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
      if (res.status === 404 || res.status === 410 || (res.status === 403 && target.origin !== this.origin)) {
        res.close();
        throw new GatewayError(
          'upstream_error',
          `The upstream's result file is no longer available (HTTP ${res.status}); its download link may have expired.`,
          {
            code: 'upstream_result_gone',
            upstreamStatus: res.status,
          },
        );
      }
      throw await this.failure(res);
    }
  }

  /**
   * Where a download hop may connect. The configured upstream's own host is the operator's choice and
   * trusted; any other host (a storage link, a redirect) is an address the upstream chose, so it must be
   * public, like any fetch on someone else's say-so. Checked in the connection's own lookup, so the
   * address checked is the address used.
   */
  private hopLookup(target: URL): HopLookup | undefined {
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (host === this.host) return undefined;
    if (net.isIP(host)) {
      if (isForbiddenAddress(host)) throw forbiddenHop();
      return undefined;
    }
    return async (hostname) => {
      const addresses = await dns.promises.lookup(hostname, { all: true });
      // refused when any record is private: the upstream's zone, not us, decides which one a retry would get
      const [first] = addresses;
      if (!first || addresses.some((a) => isForbiddenAddress(a.address))) throw forbiddenHop();
      return { address: first.address, family: first.family === 6 ? 6 : 4 };
    };
  }

  private async send(url: string, call: UpstreamCall, withConfigHeaders: boolean, lookup?: HopLookup): Promise<UpstreamResponse> {
    const guard = new CallGuard(this.timeouts, call.signal, this.agents.begin());
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(withConfigHeaders ? this.config.headers : {}),
      ...call.headers,
    };
    let data: unknown;
    if (call.json !== undefined) {
      data = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    } else if (call.form) {
      data = call.form; // axios writes the multipart body and its boundary header
    }
    let res: AxiosResponse<Readable>;
    try {
      res = await this.http.request<Readable>({
        method: call.method,
        url,
        params: call.query,
        data,
        headers,
        signal: guard.signal,
        ...(lookup ? { lookup } : {}),
      });
    } catch (e) {
      guard.finish();
      if (isGatewayError((e as { cause?: unknown }).cause)) throw (e as { cause: GatewayError }).cause;
      if (isGatewayError(e)) throw e;
      throw this.redact(guard.translate(e));
    }
    const flat = flatHeaders(res.headers);
    const requestId = (this.config.requestIdHeaders ?? ['x-request-id']).map((h) => flat[h]).find(Boolean);
    guard.headersReceived(() => res.data.destroy());
    return new UpstreamResponse(res.status, flat, requestId, res.data, guard);
  }

  private async failure(r: UpstreamResponse): Promise<GatewayError> {
    return this.redact(await describeUpstreamFailure(r, this.config.describeFailure));
  }

  private redact(e: GatewayError): GatewayError {
    return redactSecrets(e, this.config.secrets);
  }

  destroy(): void {
    this.agents.destroy();
  }

  /** Retired by a config reload: idle sockets close now, the rest once the calls in flight end. */
  drain(): void {
    this.agents.drain();
  }
}
