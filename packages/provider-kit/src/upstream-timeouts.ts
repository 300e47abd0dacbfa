/** Per-provider timeouts, all in milliseconds (config `providers[].timeouts`). */
export interface UpstreamTimeouts {
  /** TCP (and TLS) connect of a new socket; reused keep-alive sockets skip it */
  connectMs?: number;
  /** request sent → response headers. For a non-streaming call that is the whole generation. */
  firstByteMs?: number;
  /** longest silence between two body chunks */
  idleMs?: number;
  /** whole call, body included */
  totalMs?: number;
}

export type TimeoutPhase = 'connect' | 'first byte' | 'idle' | 'total';

/** Generous defaults: a non-streaming reasoning call can legitimately take minutes before its headers. */
export const DEFAULT_TIMEOUTS: Required<UpstreamTimeouts> = Object.freeze({
  connectMs: 10_000,
  firstByteMs: 300_000,
  idleMs: 120_000,
  totalMs: 900_000,
});

export function resolveTimeouts(t: UpstreamTimeouts | undefined): Required<UpstreamTimeouts> {
  return {
    connectMs: t?.connectMs ?? DEFAULT_TIMEOUTS.connectMs,
    firstByteMs: t?.firstByteMs ?? DEFAULT_TIMEOUTS.firstByteMs,
    idleMs: t?.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    totalMs: t?.totalMs ?? DEFAULT_TIMEOUTS.totalMs,
  };
}
