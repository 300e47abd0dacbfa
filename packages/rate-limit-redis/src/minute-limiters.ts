import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { MinuteCount } from '@gateway/core';

export type LimiterClasses = Pick<typeof import('rate-limiter-flexible'), 'RateLimiterMemory' | 'RateLimiterRedis'>;

/** Counts are compared by core's rule, against each key's own limit, so one store of counters serves every limit. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

const limiterOptions = (keyPrefix: string) => ({ points: UNBOUNDED, duration: 60, keyPrefix });

/** One limiter per key prefix, made on first use. */
export function limitersByPrefix<L>(make: (opts: ReturnType<typeof limiterOptions>) => L): (prefix: string) => L {
  const made = new Map<string, L>();
  return (prefix) => made.get(prefix) ?? made.set(prefix, make(limiterOptions(prefix))).get(prefix)!;
}

export const countOf = (r: RateLimiterRes | null): MinuteCount => ({
  consumed: r?.consumedPoints ?? 0,
  msBeforeNext: r?.msBeforeNext ?? 0,
});
