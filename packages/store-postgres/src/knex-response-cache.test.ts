import { describeResponseCacheStoreConformance } from '@gateway/testkit';
import { KnexResponseCacheStore } from './knex-response-cache';
import { describeOnTestDatabases, type TestDatabase } from '../test/test-databases';

describeOnTestDatabases((target) => {
  let db: TestDatabase;
  // one database per target (migrating an embedded one is slow on a loaded machine); each store starts empty
  beforeAll(async () => {
    db = await target.open();
  }, 180_000);
  afterAll(async () => db?.drop());
  describeResponseCacheStoreConformance(`KnexResponseCacheStore on ${target.name}`, async ({ maxBytes }) => {
    await db.knex('response_cache').delete();
    return { store: new KnexResponseCacheStore(db.knex, { maxBytes }), done: async () => {} };
  });
});

describeOnTestDatabases((target) =>
  describe(`KnexResponseCacheStore sweeps on ${target.name}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await target.open();
    }, 180_000);
    afterAll(async () => db?.drop());

    it('deletes expired entries at the next sweep (a minute apart), not only hiding them', async () => {
      let now = Date.parse('2026-01-01T00:00:00Z');
      const store = new KnexResponseCacheStore(db.knex, { now: () => now });
      const answer = (key: string, ttlMs: number) =>
        store.put(key, { value: key, accountId: 'a', keyId: null, model: 'm', expiresAt: new Date(now + ttlMs) });
      await answer('short', 1000);
      await answer('long', 3_600_000);
      now += 2000;
      expect(await store.get('short')).toBeUndefined();
      now += 60_000;
      await answer('next', 3_600_000);
      expect((await db.knex('response_cache').select('key').orderBy('key')).map((r) => r.key)).toEqual(['long', 'next']);
    });
  }),
);
