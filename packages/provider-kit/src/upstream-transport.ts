import type { AxiosInstance } from 'axios';
import type { Readable } from 'node:stream';
import type { GatewayError } from '@gateway/core';
import { CallGuard } from './call-guard';
import { createUpstreamAxios, describeUpstreamFailure, flatHeaders, redactSecrets } from './upstream-common';
import { nodeSend } from './node-http-sender';
import { createKeepAliveAgents, type KeepAliveAgents } from './keep-alive-agents';
import { malformedUpstream, type UpstreamFailure } from './upstream-errors';
import { resolveTimeouts, type UpstreamTimeouts } from './upstream-timeouts';
import { checkUpstream, type UpstreamSchema } from './upstream-schema';

export interface TransportConfig {
  /** as the provider's own SDK takes it; request paths are appended */
  baseUrl: string;
  /** sent on every request (auth, version headers) */
  headers?: Record<string, string>;
  timeouts?: UpstreamTimeouts;
  /** response headers carrying the upstream request id; the first present wins */
  requestIdHeaders?: string[];
  /** a non-2xx answer → GatewayError: the provider's `<p>-error.ts` */
  describeFailure?: (f: UpstreamFailure) => GatewayError;
  /** strings that must never appear in an error message (the upstream key) */
  secrets?: string[];
  /** `node` (default): node's http client directly, measured faster (docs/adr/0002-node-http-transport.md); `axios` on request */
  transport?: 'axios' | 'node';
}

export interface SendOptions {
  signal?: AbortSignal;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

const JSON_BODY_LIMIT = 64 * 1024 * 1024;

/** A 2xx upstream answer whose body has not been read yet. */
export class UpstreamResponse {
  private consumed = false;

  constructor(
    readonly status: number,
    readonly headers: Record<string, string | undefined>,
    readonly requestId: string | undefined,
    private readonly stream: Readable,
    private readonly guard: CallGuard,
  ) {}

  /** The body as it arrives, under the idle and total timers; errors come out as GatewayError. */
  async *body(): AsyncGenerator<Buffer> {
    if (this.consumed) throw new Error('upstream body already consumed');
    this.consumed = true;
    const { stream, guard } = this;
    try {
      for await (const chunk of stream) {
        guard.touch();
        yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      }
    } catch (e) {
      throw guard.translate(e);
    } finally {
      guard.finish();
      // An unfinished body means the caller stopped early: drop the socket rather than reuse it mid-response.
      if (!stream.readableEnded) stream.destroy();
    }
  }

  async text(limit = JSON_BODY_LIMIT): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of this.body()) {
      size += c.length;
      if (size > limit) throw malformedUpstream(`a body larger than ${limit} bytes`);
      chunks.push(c);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** The body as JSON checked against the upstream's minimal schema (`<p>-api.ts`); `what` names it in errors. */
  async json<T>(schema: UpstreamSchema<T>, what: string): Promise<T> {
    const text = await this.text();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw malformedUpstream('a body that is not valid JSON');
    }
    return checkUpstream(schema, value, what);
  }

  /** Abandons the body. */
  close(): void {
    this.guard.finish();
    if (!this.stream.readableEnded) this.stream.destroy();
  }
}

/**
 * The one HTTP client of every outbound adapter: keep-alive agents per provider, redirects never
 * followed, every body read as a stream (never buffered whole by axios), four timeouts.
 */
export class UpstreamTransport {
  private readonly http: AxiosInstance;
  private readonly agents: KeepAliveAgents;
  private readonly timeouts: Required<UpstreamTimeouts>;
  private readonly baseUrl: string;

  constructor(private readonly config: TransportConfig) {
    this.timeouts = resolveTimeouts(config.timeouts);
    this.agents = createKeepAliveAgents(this.timeouts.connectMs);
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.http = createUpstreamAxios(this.agents);
  }

  /** POSTs JSON. Resolves on a 2xx with the body unread; anything else is thrown as a GatewayError. */
  async post(path: string, body: unknown, opts: SendOptions = {}): Promise<UpstreamResponse> {
    const guard = new CallGuard(this.timeouts, opts.signal, this.agents.begin());
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...this.config.headers,
      ...opts.headers,
    };
    let res: { status: number; headers: Record<string, string | undefined>; stream: Readable };
    try {
      if (this.config.transport !== 'axios') {
        const query = opts.query ? `?${new URLSearchParams(opts.query)}` : '';
        res = await nodeSend(this.agents, {
          method: 'POST',
          url: this.baseUrl + path + query,
          headers,
          body: JSON.stringify(body),
          signal: guard.signal,
        });
      } else {
        const r = await this.http.request<Readable>({
          method: 'POST',
          url: this.baseUrl + path,
          params: opts.query,
          data: JSON.stringify(body),
          headers,
          signal: guard.signal,
        });
        res = { status: r.status, headers: flatHeaders(r.headers), stream: r.data };
      }
    } catch (e) {
      guard.finish();
      throw this.redact(guard.translate(e));
    }
    const requestId = (this.config.requestIdHeaders ?? ['x-request-id']).map((h) => res.headers[h]).find(Boolean);
    guard.headersReceived(() => res.stream.destroy());
    const response = new UpstreamResponse(res.status, res.headers, requestId, res.stream, guard);
    if (res.status >= 200 && res.status < 300) return response;
    throw this.redact(await this.failure(response));
  }

  private async failure(r: UpstreamResponse): Promise<GatewayError> {
    return this.redact(await describeUpstreamFailure(r, this.config.describeFailure));
  }

  private redact(e: GatewayError): GatewayError {
    return redactSecrets(e, this.config.secrets);
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
