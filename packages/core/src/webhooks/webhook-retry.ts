/** When a failed delivery is tried again: exponential, from a first retry within seconds up to a window (24 h). */
export interface WebhookRetryPolicy {
  /** delay before the first retry */
  firstDelayMs: number;
  /** each later delay is the previous one times this */
  factor: number;
  /** no single delay is longer than this */
  maxDelayMs: number;
  /** a delivery failing for this long since its first attempt is given up; an endpoint failing this long is disabled */
  windowMs: number;
  /**
   * up to this fraction of each delay is taken off at random (none when absent), so the deliveries that failed
   * together while a receiver was down do not all come back at the same instant
   */
  jitter?: number;
}

export const DEFAULT_WEBHOOK_RETRY: Readonly<WebhookRetryPolicy> = Object.freeze({
  firstDelayMs: 5_000,
  factor: 3,
  maxDelayMs: 4 * 3600_000,
  windowMs: 24 * 3600_000,
  jitter: 0.2,
});

/**
 * The next attempt after `failedAttempts` failures (1 after the first), or null when the window, counted from the
 * first attempt, is over: the last retry lands at the window's end at the latest.
 */
export function nextAttemptAt(
  p: WebhookRetryPolicy,
  failedAttempts: number,
  firstAttemptAt: Date,
  now: Date,
  random: () => number = Math.random,
): Date | null {
  const end = firstAttemptAt.getTime() + p.windowMs;
  if (now.getTime() >= end) return null;
  const full = Math.min(p.maxDelayMs, p.firstDelayMs * p.factor ** Math.max(0, failedAttempts - 1));
  const delay = Math.round(full * (1 - (p.jitter ?? 0) * random()));
  return new Date(Math.min(end, now.getTime() + delay));
}
