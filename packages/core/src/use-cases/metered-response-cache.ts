import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import { randomUUID } from 'node:crypto';
import { batchPriced, meteredCost, pricingOf, type MeteredUsage } from '../pricing';
import type { ResponseCacheStore } from '../ports/response-cache-store.port';
import type { UsageLog } from '../ports/usage-log.port';
import { cacheTenant, responseCacheKey, type CacheConfig, type CacheDirectives, type CacheStatus } from '../response-cache';
import type { Billing } from './billing';
import type { RoutedCallMeta } from './usage-record';

/** What the cache metrics count: a lookup's outcome and the bytes an answer took, by kind and model. */
export interface ResponseCacheObserver {
  looked(kind: string, model: string, status: CacheStatus): void;
  stored(kind: string, model: string, bytes: number): void;
}

/** The response cache for the metered kinds (embeddings items, rerank): the store and who is told what it did. */
export interface MeteredCacheDeps {
  store: ResponseCacheStore;
  observer?: ResponseCacheObserver;
  now?: () => number;
}

/** A call's `Cache-Control` directives, passed by the wire routers beside the routed call's meta. */
export type CachedCallMeta = RoutedCallMeta & { cacheControl?: CacheDirectives };

/**
 * One call's view of the cache: its policy, its tenant's keys and what the client's directives allow. Lookups and
 * stores never fail the call: a store that cannot answer is a miss.
 */
export class MeteredCacheCall {
  private readonly now: () => number;

  constructor(
    private readonly deps: MeteredCacheDeps,
    private readonly kind: 'embedding' | 'rerank',
    private readonly principal: Principal,
    private readonly model: ModelSpec,
    private readonly policy: CacheConfig,
    readonly directives: CacheDirectives = {},
  ) {
    this.now = deps.now ?? Date.now;
  }

  get looksUp(): boolean {
    return !this.directives.noCache && !this.directives.noStore;
  }

  key(content: unknown): string {
    return responseCacheKey(this.kind, cacheTenant(this.principal, this.policy), this.model.id, content);
  }

  /** The values under `keys`, in order (undefined: a miss); nothing is read when the directives skip the lookup. */
  async lookup(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (!this.looksUp) return keys.map(() => undefined);
    return await Promise.all(
      keys.map(async (k) => {
        try {
          return (await this.deps.store.get(k))?.value;
        } catch {
          return undefined;
        }
      }),
    );
  }

  /** Stores each value under its key for the policy's TTL (none with `no-store`); a failed store is skipped. */
  async store(entries: readonly { key: string; value: string }[]): Promise<void> {
    if (this.directives.noStore) return;
    const expiresAt = new Date(this.now() + this.policy.ttlSeconds * 1000);
    const p = this.principal;
    // together, not one after another: a batch of 2,048 new items would otherwise wait on 2,048 round trips
    await Promise.all(
      entries.map(async ({ key, value }) => {
        try {
          await this.deps.store.put(key, { value, accountId: p.accountId, keyId: p.keyId, model: this.model.id, expiresAt });
          this.deps.observer?.stored(this.kind, this.model.id, Buffer.byteLength(value));
        } catch {
          // the answer is already on its way: a cache that cannot store only costs the next call an upstream trip
        }
      }),
    );
  }

  /** What the header says, counted for the metrics: `bypass` when the directives skipped the lookup. */
  status(allHit: boolean): CacheStatus {
    const status: CacheStatus = !this.looksUp ? 'bypass' : allHit ? 'hit' : 'miss';
    this.deps.observer?.looked(this.kind, this.model.id, status);
    return status;
  }
}

/** The deps a hit row needs: where usage rows go and who charges credits. */
export interface HitRowDeps {
  usage: UsageLog;
  billing?: Billing;
}

/**
 * The usage row of what the cache answered (for a partly cached batch, of its cached items): marked as a hit and
 * priced at `pricing.cacheHitMultiplier` times the kind's price (default 0: free).
 */
export async function recordCacheHit(
  deps: HitRowDeps,
  hit: { principal: Principal; model: ModelSpec; meta: RoutedCallMeta; usage: MeteredUsage & { estimated?: boolean } },
): Promise<void> {
  const { principal, model, meta, usage } = hit;
  const full = meteredCost(batchPriced(model, principal), usage);
  const credits = Math.round(full * (pricingOf(model).cacheHitMultiplier ?? 0) * 1e6) / 1e6;
  const rowId = randomUUID();
  let charge: number | undefined;
  if (credits > 0 && deps.billing) {
    try {
      await deps.billing.settle(principal, credits, model.kind, { requestId: meta.requestId, usageRowId: rowId });
    } catch {
      charge = credits;
    }
  }
  const { estimated, ...counts } = usage;
  deps.usage.record({
    rowId,
    requestId: meta.requestId,
    accountId: principal.accountId,
    keyId: principal.keyId,
    model: model.id,
    format: meta.format,
    status: 'ok',
    httpStatus: 200,
    errorCode: null,
    ...counts,
    ...(estimated ? { estimated: true } : {}),
    latencyMs: 0,
    provider: null,
    attempts: 0,
    credits,
    ...(charge ? { charge } : {}),
    cacheHit: true,
    ...(principal.batchId ? { batchId: principal.batchId } : {}),
  });
}
