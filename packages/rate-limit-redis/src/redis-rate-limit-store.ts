import { randomUUID } from 'node:crypto';
import type { RateLimitStore, SlotRelease } from '@gateway/core';
import { countOf, limitersByPrefix, type LimiterClasses } from './minute-limiters';
import type { RedisLink } from './redis-link';
// the limiter by its own file: the package's index loads every store it supports (Mongo, MySQL, etcd...)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RateLimiterRedis = require('rate-limiter-flexible/lib/RateLimiterRedis') as LimiterClasses['RateLimiterRedis'];

/**
 * One sorted set per holder: a member per open stream, scored by when its lease ends. A holder renews its lease while
 * the stream runs, so the slots of a crashed instance come back within one lease.
 */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;
const RENEW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1`;

/**
 * Counts shared by every instance through Redis. Each call runs within the link's budget; one Redis cannot answer
 * is `undefined`, and core's rule applies RATE_LIMIT_ON_REDIS_ERROR.
 */
export function redisRateLimitStore(link: RedisLink, leaseMs = 60_000): RateLimitStore {
  const counter = limitersByPrefix((opts) => new RateLimiterRedis({ ...opts, storeClient: link.client, rejectIfRedisNotReady: true }));
  let streams = 0;
  const instance = randomUUID();
  return {
    async addPoints(prefix, key, points) {
      const r = await link.run(() => counter(prefix).consume(key, points));
      return r.ok ? countOf(r.value) : undefined;
    },
    async peekPoints(prefix, key) {
      const r = await link.run(() => counter(prefix).get(key));
      return r.ok ? countOf(r.value) : undefined;
    },
    async takeSlot(holder, limit): Promise<SlotRelease | null | undefined> {
      const key = `gw-streams:${holder}`;
      const member = `${instance}:${++streams}`;
      const r = await link.run((c) => c.eval(ACQUIRE_SCRIPT, 1, key, limit, leaseMs, member));
      if (!r.ok) return undefined;
      if (r.value !== 1) return null;
      const redis = link.client;
      // ignored: a missed renewal is retried a third of a lease later; the lease only lapses after three misses in a row
      const renew = setInterval(() => void redis.eval(RENEW_SCRIPT, 1, key, leaseMs, member).catch(() => undefined), leaseMs / 3);
      renew.unref();
      return () => {
        clearInterval(renew);
        // ignored: the lease (leaseMs) frees the slot if Redis misses this
        void redis.zrem(key, member).catch(() => undefined);
      };
    },
  };
}
