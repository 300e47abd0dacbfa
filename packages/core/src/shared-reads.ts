/**
 * Concurrent reads of one key share one store read. Behind a short-lived cache, an entry that expires under load is
 * otherwise read once per waiting request, and on a store that answers one query at a time (the embedded PGlite in
 * its thread, docs/adr/0004) those reads queue: 128 waiting requests, 128 reads in a row.
 * forget() lets the next caller start a fresh read (a write made the one in flight stale); a forgotten read's value is
 * not stored.
 */
export class SharedReads<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  /** `store` runs only for the read that is still current when it ends (the caller's cache write). */
  read(key: string, load: () => Promise<T>, store: (value: T) => void): Promise<T> {
    const current = this.inFlight.get(key);
    if (current) return current;
    const read: Promise<T> = load().then(
      (value) => {
        if (this.inFlight.get(key) === read) {
          this.inFlight.delete(key);
          store(value);
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
    if (key === undefined) this.inFlight.clear();
    else this.inFlight.delete(key);
  }
}
