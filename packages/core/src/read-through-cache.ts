/**
 * A short-lived cache in front of a store read, the one the hot path's key and quota lookups use: a value is reused
 * for `ttlMs`, and callers that miss together share one store read. Behind a short TTL an entry that expires under
 * load is otherwise read once per waiting request, and on a store that answers one query at a time (the embedded
 * PGlite in its thread, docs/adr/0004) those reads queue: 128 waiting requests, 128 reads in a row.
 * forget() drops a value (a write made it stale) and lets the next caller start a fresh read; a read in flight when
 * its key is forgotten is not stored. At `maxEntries` the cache starts over rather than growing.
 */
export class ReadThroughCache<T> {
  private readonly values = new Map<string, { at: number; value: T }>();
  private readonly inFlight = new Map<string, Promise<T>>();

  constructor(private readonly opts: { ttlMs: number; maxEntries: number; now?: () => number }) {}

  /** The value while it is fresh, without a promise (the hot path's common case); undefined: ask `get`. */
  peek(key: string): T | undefined {
    const hit = this.values.get(key);
    return hit && this.now() - hit.at < this.opts.ttlMs ? hit.value : undefined;
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    const fresh = this.peek(key);
    if (fresh !== undefined) return Promise.resolve(fresh);
    const current = this.inFlight.get(key);
    if (current) return current;
    const read: Promise<T> = load().then(
      (value) => {
        if (this.inFlight.get(key) === read) {
          this.inFlight.delete(key);
          if (this.values.size >= this.opts.maxEntries) this.values.clear();
          this.values.set(key, { at: this.now(), value });
        }
        return value;
      },
      (e: unknown) => {
        if (this.inFlight.get(key) === read) this.inFlight.delete(key);
        throw e;
      },
    );
    this.inFlight.set(key, read);
    return read;
  }

  /** One key, or every key. */
  forget(key?: string): void {
    if (key === undefined) {
      this.values.clear();
      this.inFlight.clear();
    } else {
      this.values.delete(key);
      this.inFlight.delete(key);
    }
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}
