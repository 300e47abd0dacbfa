import type Redis from 'ioredis';
import type { SharedStorePolicy } from '@gateway/core';

/** RATE_LIMIT_ON_REDIS_ERROR: what a limit check does while Redis cannot answer. */
export type RedisErrorPolicy = SharedStorePolicy;

/** Where the link says Redis went away and came back (the gateway's logger). */
export interface LinkLogger {
  warn(message: string, meta: Record<string, unknown>): unknown;
}

/** The most a limit check may add to a request when Redis is slow or gone. */
export const REDIS_CHECK_BUDGET_MS = 50;

export interface RedisLink {
  readonly policy: RedisErrorPolicy;
  /** the client itself, for libraries that take one; calls through it must go through run() */
  readonly client: Redis;
  /** false from a failed command until Redis answers again */
  healthy(): boolean;
  /** resolves once the first connection succeeded or failed (at most a second): start-up logs the outcome */
  settled(): Promise<void>;
  /**
   * Runs one Redis operation within the budget. A failure marks the link down (logged once) and returns
   * undefined, so the caller applies the policy; a success after an outage logs the recovery once.
   */
  run<T>(op: (redis: Redis) => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }>;
  close(): void;
}

function withinBudget<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * One connection to Redis for the limiters. Commands are never queued while it is down (ioredis's offline queue would hold
 * them for ~10 s): they fail at once, or after the budget when Redis accepts but does not answer.
 */
export function createRedisLink(url: string, policy: RedisErrorPolicy, logger: LinkLogger, budgetMs = REDIS_CHECK_BUDGET_MS): RedisLink {
  // loaded here, not at import: a gateway without REDIS_URL does not hold the client's ~20 MB
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
  const RedisClient = (require('ioredis') as { default: typeof Redis }).default;
  const redis = new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: budgetMs,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let up = true;
  const down = (why: string) => {
    if (!up) return;
    up = false;
    logger.warn('redis unreachable: rate limits degraded', { policy, error: why });
  };
  const recovered = () => {
    if (up) return;
    up = true;
    logger.warn('redis reachable again: rate limits shared across instances', { policy });
  };
  redis.on('error', (e: Error) => down(e.message));
  redis.on('ready', recovered);
  const first = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', done);
    redis.once('error', done);
  });
  return {
    policy,
    client: redis,
    healthy: () => up,
    settled: async () => {
      await first;
      if (redis.status !== 'ready') down(`connection ${redis.status}`);
    },
    async run(op) {
      if (redis.status !== 'ready') {
        down(`connection ${redis.status}`);
        return { ok: false };
      }
      try {
        const value = await withinBudget(op(redis), budgetMs);
        recovered();
        return { ok: true, value };
      } catch (e) {
        down((e as Error).message);
        return { ok: false };
      }
    },
    close: () => redis.disconnect(),
  };
}
