import {
  CLI_AUDIT_CONTEXT,
  ResponseCachePurge,
  type AuditedChanges,
  type MeteredCacheDeps,
  type ResponseCacheObserver,
  type ResponseCacheStore,
} from '@gateway/core';
import { createRedisLink, redisResponseCacheStore, type RedisLink } from '@gateway/rate-limit-redis';

/** RESPONSE_CACHE_MAX_BYTES's default: 256 MiB of stored answers. */
export const DEFAULT_RESPONSE_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Where the response cache keeps answers: Redis when REDIS_URL is set (shared by every instance), else the database
 * store given (the embedded store included); counted by the metrics. Undefined: no store, nothing is cached.
 */
export function openResponseCache(
  opts: { maxBytes?: number; redis?: RedisLink; database?: (maxBytes: number) => ResponseCacheStore },
  observer?: ResponseCacheObserver,
): MeteredCacheDeps | undefined {
  const maxBytes = opts.maxBytes ?? DEFAULT_RESPONSE_CACHE_MAX_BYTES;
  const store = opts.redis ? redisResponseCacheStore(opts.redis, { maxBytes }) : opts.database?.(maxBytes);
  return store && { store, observer };
}

/** The admin API's and the CLI's purge over that store (each route names its caller as the author). */
export function responseCachePurgeFor(cache: MeteredCacheDeps | undefined, audit: AuditedChanges): ResponseCachePurge | undefined {
  return cache && new ResponseCachePurge({ store: cache.store, audit, author: CLI_AUDIT_CONTEXT });
}

/**
 * The CLI's own view of the cache when it serves the admin API itself: Redis when REDIS_URL is set (the budget of a
 * command, not of a request), else the database store given. `close` lets the process end.
 */
export async function openCliResponseCache(
  env: { redisUrl?: string; responseCacheMaxBytes?: number },
  logger: { warn(message: string, meta: Record<string, unknown>): unknown },
  database?: (maxBytes: number) => ResponseCacheStore,
): Promise<{ cache?: MeteredCacheDeps; close(): void }> {
  const redis = env.redisUrl ? createRedisLink(env.redisUrl, 'closed', logger, 10_000) : undefined;
  await redis?.settled();
  const cache = openResponseCache({ maxBytes: env.responseCacheMaxBytes, redis, database });
  return { cache, close: () => redis?.close() };
}
