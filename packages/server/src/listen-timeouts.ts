import { DEFAULT_LISTEN_TIMEOUTS, type ListenTimeouts } from '@gateway/http-kit';
import type { EnvValues } from './env.schema';

export type { ListenTimeouts } from '@gateway/http-kit';

/** HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS, each defaulting to http-kit's. */
export function listenTimeoutsOf(v: EnvValues): ListenTimeouts {
  const t: ListenTimeouts = {
    headersMs: v.HTTP_HEADERS_TIMEOUT_MS ?? DEFAULT_LISTEN_TIMEOUTS.headersMs,
    requestMs: v.HTTP_REQUEST_TIMEOUT_MS ?? DEFAULT_LISTEN_TIMEOUTS.requestMs,
    keepAliveMs: v.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? DEFAULT_LISTEN_TIMEOUTS.keepAliveMs,
  };
  // node refuses a headers timeout longer than the request timeout
  if (t.headersMs > t.requestMs) throw new Error('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  return t;
}
