import type { Request, Response } from 'express';
import { cacheDirectives, type CacheDirectives, type CacheStatus } from '@gateway/core';

/** What the response cache did for an answer of a model that has one: `hit`, `miss` or `bypass` (docs/cache.md). */
export const CACHE_HEADER = 'x-gateway-cache';

/** The client's `Cache-Control` directives the response cache obeys (`no-cache`, `no-store`). */
export function requestCacheControl(req: Pick<Request, 'headers'>): CacheDirectives {
  const header = req.headers['cache-control'];
  return cacheDirectives(Array.isArray(header) ? header.join(',') : header);
}

/** Says what the cache did, when the answer's model has a cache (no header otherwise). */
export function sendCacheStatus(res: Response, status: CacheStatus | undefined): void {
  if (status) res.setHeader(CACHE_HEADER, status);
}

/** What a text route puts in its call's meta: the client's directives, and the header set as soon as the cache decided. */
export function cacheCallMeta(
  req: Pick<Request, 'headers'>,
  res: Response,
): { cacheControl: CacheDirectives; onCache(status: CacheStatus): void } {
  return { cacheControl: requestCacheControl(req), onCache: (status) => sendCacheStatus(res, status) };
}
