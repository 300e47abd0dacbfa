import type { ApiKeyRecord, KeyRepository } from '@gateway/core';

type Found = (ApiKeyRecord & { hash: string }) | null;

/**
 * Caches key lookups for a short TTL so the hot path does not hit the store on every request.
 * The TTL bounds how long a revoked key keeps working (documented: KEY_CACHE_TTL_MS, default 2 s);
 * a revocation through this process's repository takes effect at once.
 */
export class CachedKeyRepository implements KeyRepository {
  private readonly cache = new Map<string, { at: number; value: Found }>();

  constructor(
    private readonly inner: KeyRepository,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async findKeyByHash(hash: string): Promise<Found> {
    const hit = this.cache.get(hash);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    const value = await this.inner.findKeyByHash(hash);
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(hash, { at: this.now(), value });
    return value;
  }

  createAccount: KeyRepository['createAccount'] = (...a) => this.inner.createAccount(...a);
  getAccount: KeyRepository['getAccount'] = (...a) => this.inner.getAccount(...a);
  listAccounts: KeyRepository['listAccounts'] = () => this.inner.listAccounts();
  listKeys: KeyRepository['listKeys'] = (...a) => this.inner.listKeys(...a);

  async createKey(input: Parameters<KeyRepository['createKey']>[0]): Promise<ApiKeyRecord> {
    this.cache.delete(input.hash);
    return this.inner.createKey(input);
  }

  async revokeKey(id: string): Promise<boolean> {
    const ok = await this.inner.revokeKey(id);
    this.cache.clear();
    return ok;
  }
}
