import { GatewayError } from '@gateway/core';
import { CONNECT_TIMEOUT_CODE } from './keep-alive-agents';
import type { TimeoutPhase } from './upstream-timeouts';

/** A non-2xx upstream answer, as read by the transport (body bounded). */
export interface UpstreamFailure {
  status: number;
  headers: Record<string, string | undefined>;
  bodyText: string;
  /** the body parsed as JSON, when it was JSON */
  json?: unknown;
  requestId?: string;
}

/** What a provider's `<p>-error.ts` extracts from its own error body. */
export interface UpstreamErrorDetails {
  message?: string;
  /** the upstream's error type or status word, e.g. `rate_limit_error`, `RESOURCE_EXHAUSTED` */
  type?: string;
  code?: string;
}

/** `retry-after-ms`, else `retry-after` as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(headers: Record<string, string | undefined>, now: () => number = Date.now): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] && Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const raw = headers['retry-after']?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now()) / 1000);
}

/**
 * Upstream status to reason, for every provider. 401/403 never repeat the upstream's message: it can quote part of the
 * gateway's own key. 400 keeps it: it tells the caller what to fix.
 */
export function mapUpstreamStatus(f: UpstreamFailure, d: UpstreamErrorDetails): GatewayError {
  const s = f.status;
  const base = {
    upstreamStatus: s,
    upstreamCode: d.code ?? d.type,
    upstreamRequestId: f.requestId,
    upstreamMessage: excerpt(d.message || f.bodyText),
  };
  if (s === 400 || s === 422) {
    return new GatewayError('invalid_request', d.message || 'The upstream provider rejected the request.', {
      ...base,
      code: 'upstream_invalid_request',
    });
  }
  if (s === 401 || s === 403) {
    return new GatewayError(
      'upstream_error',
      "The upstream provider rejected the gateway's upstream credentials; an operator must fix the provider configuration.",
      // not even logged: the upstream's words may quote part of the key
      { ...base, upstreamMessage: undefined, code: 'upstream_auth_failed' },
    );
  }
  if (s === 404)
    return new GatewayError('invalid_request', 'The model was not found upstream.', {
      ...base,
      code: 'upstream_model_not_found',
      param: 'model',
    });
  if (s === 408) return new GatewayError('upstream_timeout', 'The upstream provider timed out.', { ...base, code: 'upstream_timeout' });
  if (s === 413)
    return new GatewayError('payload_too_large', d.message || 'The request is too large for the upstream provider.', {
      ...base,
      code: 'upstream_payload_too_large',
    });
  if (s === 429) {
    return new GatewayError('rate_limited', 'The upstream provider is rate limiting requests; retry later.', {
      ...base,
      code: 'upstream_rate_limited',
      retryAfterSeconds: parseRetryAfter(f.headers),
    });
  }
  if (s === 500 || s === 502 || s === 503 || s === 504 || s === 529) {
    return new GatewayError('upstream_unavailable', `The upstream provider is temporarily unavailable (HTTP ${s}).`, {
      ...base,
      code: 'upstream_unavailable',
    });
  }
  if (s >= 300 && s < 400) {
    return new GatewayError(
      'upstream_error',
      `The upstream provider answered with a redirect (HTTP ${s}), which the gateway does not follow.`,
      { ...base, code: 'upstream_redirect' },
    );
  }
  return new GatewayError('upstream_error', `The upstream provider failed (HTTP ${s}).`, { ...base, code: 'upstream_error' });
}

/** An upstream account that ran out of credit: the next deployment may still answer, so it is retryable. */
export function upstreamQuotaExhausted(f: UpstreamFailure, d: UpstreamErrorDetails): GatewayError {
  return new GatewayError('upstream_unavailable', "The gateway's upstream account for this model has no quota left.", {
    upstreamStatus: f.status,
    upstreamCode: d.code ?? d.type,
    upstreamRequestId: f.requestId,
    code: 'upstream_quota_exhausted',
  });
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** A failure below HTTP (socket, DNS, our own timers) → upstream_unavailable or upstream_timeout. */
export function mapTransportFailure(e: unknown, timedOut?: TimeoutPhase): GatewayError {
  const code = (e as { code?: string })?.code;
  if (timedOut || code === CONNECT_TIMEOUT_CODE || code === 'ETIMEDOUT') {
    const phase = timedOut ?? 'connect';
    return new GatewayError('upstream_timeout', `The upstream provider did not answer in time (${phase} timeout).`, {
      code: 'upstream_timeout',
      upstreamCode: phase,
      cause: e,
    });
  }
  const what =
    code === 'ECONNREFUSED'
      ? 'refused the connection'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'could not be resolved'
        : code && CONNECTION_CODES.has(code)
          ? 'closed the connection'
          : 'could not be reached';
  return new GatewayError('upstream_unavailable', `The upstream provider ${what}.`, {
    code: 'upstream_unreachable',
    upstreamCode: code,
    cause: e,
  });
}

/** The caller went away; nothing upstream is at fault, so the use case neither retries nor blames the deployment. */
export function clientClosed(): GatewayError {
  return new GatewayError('internal', 'The client closed the request.', { code: 'client_closed' });
}

/** A stream that stopped before its end marker: the upstream broke mid-answer. */
export function truncatedStream(what: string): GatewayError {
  return new GatewayError('upstream_unavailable', `The upstream stream ended before ${what}.`, { code: 'upstream_stream_truncated' });
}

/**
 * The upstream does not know a task the gateway holds a ref to (never made, expired, deleted): the worker settles
 * the task as failed. `knows` says how, e.g. "no longer knows task"; the id is quoted and cut to 100 characters.
 */
export function upstreamTaskNotFound(upstream: string, knows: string, id: string): GatewayError {
  return new GatewayError('upstream_error', `The upstream (${upstream}) ${knows} ${JSON.stringify(id.slice(0, 100))}.`, {
    code: 'upstream_task_not_found',
    upstreamStatus: 404,
  });
}

/** The upstream's content filter refused the input or the output: the caller's content, not a malformed request. */
export function upstreamContentPolicy(message: string | undefined, upstreamCode: string, upstreamStatus?: number): GatewayError {
  return new GatewayError('content_policy', message || 'The upstream provider refused the content.', {
    code: 'content_policy_violation',
    upstreamStatus,
    upstreamCode,
  });
}

/** The upstream answered 2xx with something the adapter cannot read. */
export function malformedUpstream(what: string): GatewayError {
  return new GatewayError('upstream_malformed_response', `The upstream provider sent ${what}.`, { code: 'upstream_malformed_response' });
}

/** A token count read from an upstream's count answer: a whole number of at least 0, else the answer is malformed. */
export function tokenCount(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw malformedUpstream(`a token count without a whole ${field}`);
  return value;
}

/** What logs keep of an upstream's error text: one line, at most 300 characters (credentials are cut later, by the redacting ports). */
export function excerpt(text: string | undefined): string | undefined {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
