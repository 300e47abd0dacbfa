import { randomUUID } from 'node:crypto';
import type { CachedAnswer, ResponseCacheStore } from '@gateway/core';

export interface ResponseCacheStoreHarness {
  /** an empty store of its own (other harnesses' entries are invisible to it) */
  store: ResponseCacheStore;
  done(): Promise<void>;
}

/** What the suite asks of a new store: its size cap, counted in bytes of `value` (plus a small per-entry overhead). */
export interface ResponseCacheStoreLimits {
  maxBytes: number;
}

const HOUR = 3_600_000;
const ENTRY_BYTES = 1000;

const answer = (over: Partial<CachedAnswer> = {}): CachedAnswer => ({
  value: 'x'.repeat(ENTRY_BYTES),
  accountId: 'acct-a',
  keyId: null,
  model: 'model-1',
  expiresAt: new Date(Date.now() + HOUR),
  ...over,
});

/**
 * Every ResponseCacheStore adapter runs this suite (the database and Redis). Expiry is tested with an `expiresAt`
 * already past, so no test waits on a clock.
 */
export function describeResponseCacheStoreConformance(
  name: string,
  make: (limits: ResponseCacheStoreLimits) => Promise<ResponseCacheStoreHarness>,
): void {
  describe(`ResponseCacheStore conformance: ${name}`, () => {
    const harnesses: ResponseCacheStoreHarness[] = [];
    const open = async (maxBytes = 10_000_000) => {
      const h = await make({ maxBytes });
      harnesses.push(h);
      return h.store;
    };
    afterAll(async () => {
      for (const h of harnesses) await h.done();
    });

    it('answers undefined for a key never stored', async () => {
      const store = await open();
      expect(await store.get(randomUUID())).toBeUndefined();
    });

    it('gives back what was put: value, tenant, model and expiry', async () => {
      const store = await open();
      const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + HOUR);
      const stored = answer({ value: '{"text":"héllo ✓"}', keyId: 'key-1', expiresAt });
      await store.put('k1', stored);
      await store.put('k2', answer({ keyId: null }));
      expect(await store.get('k1')).toEqual(stored);
      expect((await store.get('k2'))?.keyId).toBeNull();
    });

    it('an expired entry is a miss, and storing one does not revive an older live entry', async () => {
      const store = await open();
      await store.put('past', answer({ expiresAt: new Date(Date.now() - 1000) }));
      expect(await store.get('past')).toBeUndefined();
      await store.put('k', answer({ value: 'live' }));
      await store.put('k', answer({ value: 'gone', expiresAt: new Date(Date.now() - 1000) }));
      expect(await store.get('k')).toBeUndefined();
    });

    it('put replaces the entry under the same key (one entry, the latest value)', async () => {
      const store = await open();
      await store.put('k', answer({ value: 'first' }));
      await store.put('k', answer({ value: 'second', model: 'model-2' }));
      expect(await store.get('k')).toMatchObject({ value: 'second', model: 'model-2' });
      expect(await store.purge({ model: 'model-1' })).toBe(0);
      expect(await store.purge({})).toBe(1);
      expect(await store.get('k')).toBeUndefined();
    });

    it('purges by model, by account, by both, and everything', async () => {
      const store = await open();
      await store.put('a1', answer({ accountId: 'acct-a', model: 'm1' }));
      await store.put('a2', answer({ accountId: 'acct-a', model: 'm2' }));
      await store.put('b1', answer({ accountId: 'acct-b', model: 'm1' }));
      await store.put('b2', answer({ accountId: 'acct-b', model: 'm2' }));
      await store.put('c3', answer({ accountId: 'acct-c', model: 'm3' }));
      expect(await store.purge({ model: 'm1', accountId: 'acct-a' })).toBe(1);
      expect(await store.get('a1')).toBeUndefined();
      expect(await store.get('b1')).toBeDefined();
      expect(await store.purge({ accountId: 'acct-b' })).toBe(2);
      expect(await store.get('b2')).toBeUndefined();
      expect(await store.purge({ model: 'm2' })).toBe(1);
      expect(await store.get('a2')).toBeUndefined();
      expect(await store.purge({ model: 'nobody' })).toBe(0);
      expect(await store.purge({})).toBe(1);
      expect(await store.get('c3')).toBeUndefined();
    });

    it('past the size cap evicts the oldest entries first; a replaced entry counts once', async () => {
      const store = await open(ENTRY_BYTES * 3.5);
      await store.put('e1', answer());
      await store.put('e2', answer());
      for (let i = 0; i < 5; i++) await store.put('e2', answer());
      await store.put('e3', answer());
      expect(await store.get('e1')).toBeDefined();
      await store.put('e4', answer());
      expect(await store.get('e1')).toBeUndefined();
      for (const k of ['e2', 'e3', 'e4']) expect(await store.get(k)).toBeDefined();
      await store.put('e5', answer());
      expect(await store.get('e2')).toBeUndefined();
      for (const k of ['e3', 'e4', 'e5']) expect(await store.get(k)).toBeDefined();
    });

    it('stores under the cap again after a purge freed the bytes', async () => {
      const store = await open(ENTRY_BYTES * 2.5);
      await store.put('f1', answer());
      await store.put('f2', answer());
      expect(await store.purge({})).toBe(2);
      await store.put('f3', answer());
      await store.put('f4', answer());
      expect(await store.get('f3')).toBeDefined();
      expect(await store.get('f4')).toBeDefined();
    });
  });
}
