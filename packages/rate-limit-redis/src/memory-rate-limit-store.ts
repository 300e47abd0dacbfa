import type { MinuteCount, RateLimitStore, SlotRelease } from '@gateway/core';
import { countOf, limitersByPrefix, type LimiterClasses } from './minute-limiters';
// the limiter by its own file: the package's index loads every store it supports (Mongo, MySQL, etcd...)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RateLimiterMemory = require('rate-limiter-flexible/lib/RateLimiterMemory') as LimiterClasses['RateLimiterMemory'];

/** Counts in this process's memory: the store of a single instance, and the fallback of a shared one. */
export function memoryRateLimitStore(): RateLimitStore {
  const counter = limitersByPrefix((opts) => new RateLimiterMemory(opts));
  const open = new Map<string, number>();
  return {
    addPoints: async (prefix, key, points): Promise<MinuteCount> => countOf(await counter(prefix).consume(key, points)),
    peekPoints: async (prefix, key): Promise<MinuteCount> => countOf(await counter(prefix).get(key)),
    async takeSlot(holder, limit): Promise<SlotRelease | null> {
      const n = open.get(holder) ?? 0;
      if (n >= limit) return null;
      open.set(holder, n + 1);
      return () => {
        const left = (open.get(holder) ?? 1) - 1;
        if (left > 0) open.set(holder, left);
        else open.delete(holder);
      };
    },
  };
}
