import type { CachedAnswer, CachePurge, ResponseCacheStore } from '@gateway/core';

/** The response cache store in a Map, in insertion order (oldest first): for use-case tests. Runs the conformance suite. */
export class InMemoryResponseCacheStore implements ResponseCacheStore {
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;
  /** every get, in order: what the cache looked up */
  readonly gets: string[] = [];

  constructor(
    private readonly maxBytes = Infinity,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    this.gets.push(key);
    const e = this.entries.get(key);
    return e && e.expiresAt.getTime() > this.now() ? { ...e } : undefined;
  }

  async put(key: string, answer: CachedAnswer): Promise<void> {
    this.drop(key);
    const size = Buffer.byteLength(answer.value);
    if (answer.expiresAt.getTime() <= this.now() || size > this.maxBytes) return;
    this.entries.set(key, { ...answer });
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  async purge(filter: CachePurge): Promise<number> {
    let n = 0;
    for (const [k, e] of [...this.entries]) {
      if (
        (filter.model === undefined || e.model === filter.model) &&
        (filter.accountId === undefined || e.accountId === filter.accountId)
      ) {
        this.drop(k);
        n++;
      }
    }
    return n;
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.bytes -= Buffer.byteLength(e.value);
    this.entries.delete(key);
  }
}
