import type { ApiKeyRecord, KeyRepository } from '../ports/key-repository.port';
import { ReadThroughCache } from '../read-through-cache';

type Found = (ApiKeyRecord & { hash: string }) | null;

/**
 * Caches key lookups for a short TTL so the hot path does not hit the store on every request.
 * The TTL bounds how long a revoked key keeps working (documented: KEY_CACHE_TTL_MS, default 2 s);
 * a revocation or a settings change (expiry, allowlist, limits) through this process's repository takes effect at
 * once. The cached value is the whole record, so every setting of a key travels with it.
 */
export class CachedKeyRepository implements KeyRepository {
  private readonly cache: ReadThroughCache<Found>;

  constructor(
    private readonly inner: KeyRepository,
    ttlMs: number,
    now: () => number = Date.now,
  ) {
    this.cache = new ReadThroughCache({ ttlMs, maxEntries: 50_000, now });
  }

  findKeyByHash(hash: string): Promise<Found> {
    return this.cache.get(hash, () => this.inner.findKeyByHash(hash));
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
    this.cache.forget(input.hash);
    return this.inner.createKey(input);
  }

  async rotateKey(...a: Parameters<KeyRepository['rotateKey']>): Promise<ApiKeyRecord | null> {
    const rotated = await this.inner.rotateKey(...a);
    this.clear();
    return rotated;
  }

  /** After a change written past this repository (an audited change's own transaction). */
  clear(): void {
    this.cache.forget();
  }

  async revokeKey(id: string): Promise<boolean> {
    const ok = await this.inner.revokeKey(id);
    this.clear();
    return ok;
  }
}
