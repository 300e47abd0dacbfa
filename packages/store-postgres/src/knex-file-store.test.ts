import type { StoredFile } from '@gateway/core';
import { KnexFileStore } from './knex-file-store';
import { describeOnTestDatabases, type TestDatabaseTarget } from '../test/test-databases';

const NOW = new Date('2026-03-01T00:00:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

const file = (id: string, over: Partial<StoredFile> = {}): StoredFile => ({
  id,
  accountId: 'alpha',
  filename: 'input.jsonl',
  purpose: 'batch',
  bytes: 209_715_200,
  createdAt: NOW,
  expiresAt: later(30 * 86_400_000),
  ...over,
});

describeOnTestDatabases((target) =>
  describe(`KnexFileStore on ${target.name}`, () => {
    let db: Awaited<ReturnType<TestDatabaseTarget['open']>>;
    let store: KnexFileStore;
    beforeAll(async () => {
      db = await target.open();
      store = new KnexFileStore(db.knex);
    });
    afterAll(async () => db.drop());

    it('round-trips a file, with and without an expiry', async () => {
      const a = file('file-a1');
      const b = file('file-a2', { purpose: 'user_data', expiresAt: null, filename: 'notes – ü.txt', bytes: 0 });
      await store.insert(a);
      await store.insert(b);
      expect(await store.find('alpha', 'file-a1')).toEqual(a);
      expect(await store.find('alpha', 'file-a2')).toEqual(b);
    });

    it('another account sees nothing, lists nothing and cannot delete', async () => {
      await store.insert(file('file-b1', { accountId: 'gamma' }));
      expect(await store.find('beta', 'file-b1')).toBeNull();
      expect(await store.list('beta', { limit: 10, order: 'desc', now: NOW })).toEqual([]);
      expect(await store.delete('beta', 'file-b1')).toBe(false);
      expect(await store.delete('gamma', 'file-b1')).toBe(true);
      expect(await store.delete('gamma', 'file-b1')).toBe(false);
      expect(await store.find('gamma', 'file-b1')).toBeNull();
    });

    it('lists by id in either order from a cursor, by purpose, without expired files', async () => {
      for (const [id, purpose] of [
        ['file-01', 'batch'],
        ['file-02', 'user_data'],
        ['file-03', 'batch'],
        ['file-04', 'batch_output'],
      ] as const)
        await store.insert(file(id, { purpose, accountId: 'lister' }));
      await store.insert(file('file-05', { expiresAt: later(1000), accountId: 'lister' }));
      const ids = async (q: Parameters<KnexFileStore['list']>[1]) => (await store.list('lister', q)).map((f) => f.id);
      expect(await ids({ limit: 10, order: 'desc', now: NOW })).toEqual(['file-05', 'file-04', 'file-03', 'file-02', 'file-01']);
      expect(await ids({ limit: 10, order: 'desc', now: later(1000) })).toEqual(['file-04', 'file-03', 'file-02', 'file-01']);
      expect(await ids({ limit: 2, order: 'desc', after: 'file-04', now: NOW })).toEqual(['file-03', 'file-02']);
      expect(await ids({ limit: 2, order: 'asc', after: 'file-02', now: NOW })).toEqual(['file-03', 'file-04']);
      expect(await ids({ limit: 10, order: 'asc', purpose: 'batch', now: later(1000) })).toEqual(['file-01', 'file-03']);
    });

    it('finds expired files of every account for the sweep, oldest expiry first', async () => {
      // long before the other cases' files expire, so the sweep sees only these
      const past = (ms: number) => new Date(Date.UTC(2020, 0, 1) + ms);
      await store.insert(file('file-e1', { expiresAt: past(2000) }));
      await store.insert(file('file-e2', { accountId: 'beta', expiresAt: past(1000) }));
      await store.insert(file('file-e3', { expiresAt: null }));
      await store.insert(file('file-e4', { expiresAt: past(5000) }));
      expect((await store.expired(past(2000), 10)).map((f) => [f.id, f.accountId])).toEqual([
        ['file-e2', 'beta'],
        ['file-e1', 'alpha'],
      ]);
      expect((await store.expired(past(2000), 1)).map((f) => f.id)).toEqual(['file-e2']);
      expect(await store.expired(past(0), 10)).toEqual([]);
    });
  }),
);
