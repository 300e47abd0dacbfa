import type { Knex } from 'knex';
import type { CachedAnswer, CachePurge, ResponseCacheStore } from '@gateway/core';

/** RESPONSE_CACHE_MAX_BYTES's default: 256 MiB of stored answers. */
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** how often expired entries are swept and the byte count is read again (other instances write too) */
const SWEEP_MS = 60_000;

export interface KnexResponseCacheOptions {
  /** the size cap: past it the oldest entries are evicted first */
  maxBytes?: number;
  now?: () => number;
}

/**
 * The response cache in the gateway's database (response_cache, migration 038): PostgreSQL or the embedded store.
 * An expired entry is a miss at once and is swept within a minute. The size cap is kept against a byte count held
 * here, adjusted by each put and purge and read again from the table at each sweep, so a put costs no table scan.
 */
export class KnexResponseCacheStore implements ResponseCacheStore {
  private readonly maxBytes: number;
  private readonly now: () => number;
  private bytes: number | undefined;
  private nextSweep = 0;

  constructor(
    private readonly db: Knex,
    opts: KnexResponseCacheOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.now = opts.now ?? Date.now;
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    const r = await this.db('response_cache').where({ key }).where('expires_at', '>', new Date(this.now())).first();
    if (!r) return undefined;
    return { value: r.value, accountId: r.account_id, keyId: r.key_id ?? null, model: r.model, expiresAt: new Date(r.expires_at) };
  }

  async put(key: string, answer: CachedAnswer): Promise<void> {
    await this.sweep();
    const size = Buffer.byteLength(answer.value);
    // an entry that replaces another (or expired already) takes the old one's bytes away first
    const replaced = await this.db('response_cache').where({ key }).delete().returning('bytes');
    this.count(-sumOf(replaced));
    if (answer.expiresAt.getTime() <= this.now() || size > this.maxBytes) return;
    await this.db('response_cache')
      .insert({
        key,
        value: answer.value,
        account_id: answer.accountId,
        key_id: answer.keyId,
        model: answer.model,
        bytes: size,
        expires_at: answer.expiresAt,
        // clock_timestamp: entries written in one transaction still keep their order for eviction
        created_at: this.db.raw('clock_timestamp()'),
      })
      .onConflict('key')
      .merge();
    this.count(size);
    if ((this.bytes ?? 0) > this.maxBytes) await this.evict(this.bytes! - this.maxBytes);
  }

  async purge(filter: CachePurge): Promise<number> {
    const q = this.db('response_cache');
    if (filter.model !== undefined) q.where({ model: filter.model });
    if (filter.accountId !== undefined) q.where({ account_id: filter.accountId });
    // returning() rather than the affected-row count: the PGlite client does not report counts for deletes
    const gone = await q.delete().returning('bytes');
    this.count(-sumOf(gone));
    return gone.length;
  }

  /** Deletes the oldest entries until `excess` bytes are freed: the shortest prefix (by age) that frees them. */
  private async evict(excess: number): Promise<void> {
    const oldest = this.db
      .select('key')
      .from(
        this.db('response_cache').select('key', 'bytes', this.db.raw('sum(bytes) over (order by created_at, key) as running')).as('aged'),
      )
      .whereRaw('running - bytes < ?', [excess]);
    const gone = await this.db('response_cache').whereIn('key', oldest).delete().returning('bytes');
    this.count(-sumOf(gone));
  }

  /** Sweeps expired entries and reads the byte count again, at most once a minute (and before the first put). */
  private async sweep(): Promise<void> {
    const now = this.now();
    if (now < this.nextSweep && this.bytes !== undefined) return;
    this.nextSweep = now + SWEEP_MS;
    await this.db('response_cache').where('expires_at', '<=', new Date(now)).delete();
    const [row] = await this.db('response_cache').sum({ total: 'bytes' });
    this.bytes = Number(row?.total ?? 0);
  }

  private count(delta: number): void {
    this.bytes = Math.max(0, (this.bytes ?? 0) + delta);
  }
}

function sumOf(rows: Array<{ bytes: number | string } | number | string>): number {
  return rows.reduce<number>((s, r) => s + Number(typeof r === 'object' ? r.bytes : r), 0);
}
