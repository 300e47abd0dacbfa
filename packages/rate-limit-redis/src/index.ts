// The public surface of rate-limit-redis: what the composition root wires.
import { limitCounts, type LimitCounts } from '@gateway/core';
import { memoryRateLimitStore } from './memory-rate-limit-store';
import { redisRateLimitStore } from './redis-rate-limit-store';
import type { RedisLink } from './redis-link';

export { redisResponseCacheStore } from './redis-response-cache-store';
export { createRedisLink, type RedisErrorPolicy, type RedisLink } from './redis-link';

/** The counts every limit reads: shared through Redis when a link is given (its policy for outages), else this process's. */
export function rateLimitCounts(redis?: RedisLink, leaseMs?: number): LimitCounts {
  return limitCounts(memoryRateLimitStore(), redis && redisRateLimitStore(redis, leaseMs), redis?.policy);
}
