/**
 * Where the response cache keeps answers (use-cases/response-cache.ts decides what is cached and under which key).
 * Adapters: the gateway's database (store-postgres, the embedded store included) and Redis. Keys are opaque digests
 * that already hold the tenant; the tenant columns are kept beside them only so that purges can find entries.
 */
export interface CachedAnswer {
  /** the serialized answer (canonical result or recorded stream parts, as the use case encodes them) */
  value: string;
  accountId: string;
  keyId: string | null;
  /** the client-facing model id */
  model: string;
  expiresAt: Date;
}

export interface CachePurge {
  model?: string;
  accountId?: string;
}

export interface ResponseCacheStore {
  /** the live entry under `key`, or undefined (expired entries are misses) */
  get(key: string): Promise<CachedAnswer | undefined>;
  /** stores (or replaces) the entry; past the size cap the store evicts the oldest entries first */
  put(key: string, answer: CachedAnswer): Promise<void>;
  /** deletes the entries matching every given field (none: all); answers how many went */
  purge(filter: CachePurge): Promise<number>;
  /**
   * Single flight across instances, for a store they share (Redis): claims the lead of the call under `key` for `ms`
   * (SET NX PX). A token when this call leads ('' when the store cannot tell: lead unclaimed), undefined when another
   * call holds the claim. A store without claims keeps single flight per instance.
   */
  claim?(key: string, ms: number): Promise<string | undefined>;
  /** whether a claim on `key` is still held (false when the store cannot tell) */
  claimed?(key: string): Promise<boolean>;
  /** gives up this call's claim; one another call took since is left alone */
  release?(key: string, token: string): Promise<void>;
}
