import type { Principal } from '../auth';
import type { ModelCatalogue, ModelSpec } from '../catalogue';
import type { ResponseCacheStore } from '../ports/response-cache-store.port';
import type { UsageLog } from '../ports/usage-log.port';
import {
  cachePolicyFor,
  storableResult,
  storableStream,
  textCacheKey,
  uncachedRequest,
  type CacheConfig,
  type CacheDirectives,
  type CacheStatus,
} from '../response-cache';
import { collectStream, type TextRequest, type TextResult, type TextStreamPart, type Usage } from '../text';
import type { Billing } from './billing';
import { decodeAnswer, encodeAnswer, keptParts, keptResult, partsOf, replayedResult, type CachedText } from './response-cache-answer';
import { SharedFlight, type SharedFlightOptions } from './response-cache-flight';
import { HitUsage } from './response-cache-usage';
import type { RoutedCallMeta } from './usage-record';

export interface ResponseCacheDeps {
  store: ResponseCacheStore;
  catalogue: ModelCatalogue;
  usage: UsageLog;
  billing?: Billing;
  now?: () => number;
  /** a store that failed to answer or to keep an entry: the call goes on uncached (reported, never thrown) */
  onStoreError?(error: unknown): void;
  /** the metrics: each call's outcome and the bytes each stored answer took, by kind (`text`) and model */
  observer?: { looked(kind: string, model: string, status: CacheStatus): void; stored(kind: string, model: string, bytes: number): void };
  /** single flight across instances, when the store has claims (response-cache-flight.ts) */
  sharedFlight?: SharedFlightOptions;
}

/** What the wire adapter passes for the cache: the client's directives, and where to say what the cache did. */
export interface CacheCallMeta extends RoutedCallMeta {
  cacheControl?: CacheDirectives;
  /** told once per call, before the first part or the result, when the model has a cache */
  onCache?(status: CacheStatus): void;
}

type Next<T> = (request: TextRequest) => T;
type Settle = (answer: CachedText | undefined) => void;
type Plan = { found: CachedText } | { status: CacheStatus; store: boolean; key: string; settle?: Settle };

/**
 * The response cache for text: the inner layer of TextGeneration around the routed call (after the input
 * guardrails, so the key is taken from the masked request). Looks the answer up, replays it (a hit writes its own
 * usage row), or makes the call and stores a complete answer. Identical misses in flight together wait for the
 * first (single flight): one upstream call; when it fails or is not stored, the followers call themselves. On a
 * store instances share (Redis), identical misses on other instances wait for it too (SharedFlight).
 */
export class ResponseCache {
  private readonly inFlight = new Map<string, Promise<CachedText | undefined>>();
  readonly shared: SharedFlight;

  constructor(private readonly deps: ResponseCacheDeps) {
    this.shared = new SharedFlight(deps.store, { now: deps.now, ...deps.sharedFlight });
  }

  /** The cache around one call, or undefined when the model has none (no header either). */
  layer(principal: Principal, model: ModelSpec, meta: CacheCallMeta): TextCacheLayer | undefined {
    const policy = cachePolicyFor(this.deps.catalogue, principal, model);
    return policy && new TextCacheLayer(this, this.deps, principal, model, policy, meta);
  }

  /** The leader's answer of an identical call in flight, or undefined when there is none. */
  following(key: string): Promise<CachedText | undefined> | undefined {
    return this.inFlight.get(key);
  }

  /** Leads the calls of `key` until `settle` is called with the answer (or undefined: followers call themselves). */
  lead(key: string): Settle {
    let settle!: Settle;
    this.inFlight.set(key, new Promise((resolve) => (settle = resolve)));
    return (answer) => {
      settle(answer);
      this.inFlight.delete(key);
    };
  }
}

/** One call's lookup, replay or store: which it is, the header says. */
export class TextCacheLayer {
  constructor(
    private readonly cache: ResponseCache,
    private readonly deps: ResponseCacheDeps,
    private readonly principal: Principal,
    private readonly model: ModelSpec,
    private readonly policy: CacheConfig,
    private readonly meta: CacheCallMeta,
  ) {}

  async generate(request: TextRequest, next: Next<Promise<TextResult>>): Promise<TextResult> {
    const plan = await this.plan(request);
    if ('found' in plan) {
      const hit = await this.hit();
      const { found } = plan;
      const result =
        found.kind === 'result' ? replayedResult(found.result, this.model.id) : await collectStream(this.model.id, asAsync(partsOf(found)));
      hit.delivered();
      await hit.write(result.usage, true);
      return result;
    }
    this.announce(plan.status);
    if (!plan.store) return next(request);
    const { settle } = plan;
    let kept: CachedText | undefined;
    try {
      const result = await next(request);
      if (storableResult(result, this.policy)) {
        kept = keptResult(result);
        await this.put(plan.key, kept);
      }
      return result;
    } finally {
      settle?.(kept);
    }
  }

  async *stream(request: TextRequest, next: Next<AsyncIterable<TextStreamPart>>): AsyncGenerator<TextStreamPart> {
    const plan = await this.plan(request);
    if ('found' in plan) return yield* this.replay(plan.found, await this.hit());
    this.announce(plan.status);
    if (!plan.store) return yield* next(request);
    const { settle } = plan;
    const seen: TextStreamPart[] = [];
    let kept: CachedText | undefined;
    try {
      for await (const part of next(request)) {
        seen.push(part);
        yield part;
      }
      if (storableStream(seen, this.policy)) {
        kept = keptParts(seen);
        await this.put(plan.key, kept);
      }
    } finally {
      settle?.(kept);
    }
  }

  private announce(status: CacheStatus): void {
    this.meta.onCache?.(status);
    this.deps.observer?.looked('text', this.model.id, status);
  }

  /** A hit: admitted like a live call when priced, then announced. */
  private async hit(): Promise<HitUsage> {
    const hit = new HitUsage(this.deps, this.principal, this.model, this.meta);
    await hit.admit();
    this.announce('hit');
    return hit;
  }

  /** Replays a stored answer as parts; the usage row is written once the last part went, or when the caller left. */
  private async *replay(found: CachedText, hit: HitUsage): AsyncGenerator<TextStreamPart> {
    let usage: Usage | undefined;
    let complete = false;
    try {
      for (const part of partsOf(found)) {
        if (part.type === 'finish') usage = part.usage;
        hit.delivered();
        yield part;
      }
      complete = true;
    } finally {
      await hit.write(usage, complete);
    }
  }

  /**
   * What this call does: replay what was found (stored, or the answer of an identical call just finished), or
   * call, storing the answer when allowed. A call that looked up and found nothing leads the identical calls that
   * follow (checked and claimed in one step, so two calls never both lead).
   */
  private async plan(request: TextRequest): Promise<Plan> {
    const control = this.meta.cacheControl ?? {};
    const skipped = uncachedRequest(request, this.policy);
    const key = textCacheKey(this.principal, this.policy, this.model.id, request);
    if (control.noStore || (skipped && skipped !== 'store')) return { status: 'bypass', store: false, key };
    if (control.noCache || skipped) return { status: 'bypass', store: true, key };
    const leader = this.cache.following(key) ?? (await this.get(key)) ?? this.cache.following(key);
    if (!leader) return this.lead(key);
    const answer = 'kind' in leader ? leader : await leader;
    // the leader failed or kept nothing: this call makes its own
    return answer ? { found: answer } : { status: 'miss', store: true, key };
  }

  /**
   * Nothing stored and no identical call here: this call leads here, and across instances unless a call on another
   * instance leads (then it waits for that call's entry, and calls itself when none comes).
   */
  private async lead(key: string): Promise<Plan> {
    const settle = this.cache.lead(key);
    const { shared } = this.cache;
    const token = await shared.claim(key);
    if (token === undefined) {
      const found = await shared.wait(key, () => this.get(key), this.meta.signal);
      if (found) settle(found);
      return found ? { found } : { status: 'miss', store: true, key, settle };
    }
    // a leader elsewhere may have stored its answer and let go between this call's lookup and its claim
    const stored = token ? await this.get(key) : undefined;
    const release: Settle = (answer) => {
      shared.release(key, token);
      settle(answer);
    };
    if (stored) release(stored);
    return stored ? { found: stored } : { status: 'miss', store: true, key, settle: release };
  }

  private async get(key: string): Promise<CachedText | undefined> {
    try {
      const entry = await this.deps.store.get(key);
      return entry && decodeAnswer(entry.value);
    } catch (error) {
      this.deps.onStoreError?.(error);
      return undefined;
    }
  }

  private async put(key: string, answer: CachedText): Promise<void> {
    const now = (this.deps.now ?? Date.now)();
    const value = encodeAnswer(answer);
    try {
      await this.deps.store.put(key, {
        value,
        accountId: this.principal.accountId,
        keyId: this.principal.keyId,
        model: this.model.id,
        expiresAt: new Date(now + this.policy.ttlSeconds * 1000),
      });
      this.deps.observer?.stored('text', this.model.id, Buffer.byteLength(value));
    } catch (error) {
      this.deps.onStoreError?.(error);
    }
  }
}

async function* asAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
