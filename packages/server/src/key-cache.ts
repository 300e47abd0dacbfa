import { SharedReads, type ApiKeyRecord, type KeyRepository } from '@gateway/core';

type Found = (ApiKeyRecord & { hash: string }) | null;

/**
 * Caches key lookups for a short TTL so the hot path does not hit the store on every request.
 * The TTL bounds how long a revoked key keeps working (documented: KEY_CACHE_TTL_MS, default 2 s);
 * a revocation or a settings change (expiry, allowlist, limits) through this process's repository takes effect at
 * once. The cached value is the whole record, so every setting of a key travels with it.
 */
export class CachedKeyRepository implements KeyRepository {
  private readonly cache = new Map<string, { at: number; value: Found }>();
  /** requests that miss the cache together (an entry expired under load) share one store read */
  private readonly reads = new SharedReads<Found>();

  constructor(
    private readonly inner: KeyRepository,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async findKeyByHash(hash: string): Promise<Found> {
    const hit = this.cache.get(hash);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    return this.reads.read(
      hash,
      () => this.inner.findKeyByHash(hash),
      (value) => {
        if (this.cache.size > 50_000) this.cache.clear();
        this.cache.set(hash, { at: this.now(), value });
      },
    );
  }

  createAccount: KeyRepository['createAccount'] = (...a) => this.inner.createAccount(...a);
  getAccount: KeyRepository['getAccount'] = (...a) => this.inner.getAccount(...a);
  renameAccount: KeyRepository['renameAccount'] = (...a) => this.inner.renameAccount(...a);
  listAccounts: KeyRepository['listAccounts'] = () => this.inner.listAccounts();
  listKeys: KeyRepository['listKeys'] = (...a) => this.inner.listKeys(...a);
  getKey: KeyRepository['getKey'] = (...a) => this.inner.getKey(...a);

  async updateKey(...a: Parameters<KeyRepository['updateKey']>): Promise<ApiKeyRecord | null> {
    const updated = await this.inner.updateKey(...a);
    this.clear(); // entries are keyed by hash, which the id does not give
    return updated;
  }

  async createKey(input: Parameters<KeyRepository['createKey']>[0]): Promise<ApiKeyRecord> {
    this.cache.delete(input.hash);
    this.reads.forget(input.hash);
    return this.inner.createKey(input);
  }

  async rotateKey(...a: Parameters<KeyRepository['rotateKey']>): Promise<ApiKeyRecord | null> {
    const rotated = await this.inner.rotateKey(...a);
    this.clear();
    return rotated;
  }

  /** After a change written past this repository (an audited change's own transaction). */
  clear(): void {
    this.cache.clear();
    this.reads.forget();
  }

  async revokeKey(id: string): Promise<boolean> {
    const ok = await this.inner.revokeKey(id);
    this.clear();
    return ok;
  }
}
