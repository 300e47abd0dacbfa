/** What a per-minute counter knows of one key: the points taken in the current minute and when it ends. */
export interface MinuteCount {
  consumed: number;
  msBeforeNext: number;
}

/** Frees a concurrent slot taken with `takeSlot`. */
export type SlotRelease = () => void;

/**
 * Where rate limits keep their counts: per-minute points under a counter's prefix, and concurrent slots per holder (a
 * key, an account). A shared store (Redis) answers `undefined` while it cannot answer; the limit rule then applies
 * RATE_LIMIT_ON_REDIS_ERROR (use-cases/rate-limits.ts). A store in this process's memory always answers.
 */
export interface RateLimitStore {
  /** adds `points` to `key`'s count in the current minute of counter `prefix`, and answers the count after it */
  addPoints(prefix: string, key: string, points: number): Promise<MinuteCount | undefined>;
  /** the count, unchanged */
  peekPoints(prefix: string, key: string): Promise<MinuteCount | undefined>;
  /** takes one of `limit` slots of `holder`: its release, or null when all are taken */
  takeSlot(holder: string, limit: number): Promise<SlotRelease | null | undefined>;
}
