import { randomUUID } from 'node:crypto';
import { describeResponseCacheStoreConformance, describeWithService } from '@gateway/testkit';
import { createRedisLink, type RedisLink } from './redis-link';
import { redisResponseCacheStore } from './redis-response-cache-store';

const quiet = { warn: () => undefined };
/** a budget a busy test machine always meets: these tests are about what is kept, not about the 50 ms bound */
const PATIENT_MS = 2000;

describeWithService('TEST_REDIS_URL', 'redisResponseCacheStore', (redisUrl) => {
  describeResponseCacheStoreConformance('Redis', async ({ maxBytes }) => {
    const link = createRedisLink(redisUrl, 'open', quiet, PATIENT_MS);
    await link.settled();
    const prefix = `gw-test:rc:${randomUUID()}:`;
    return {
      store: redisResponseCacheStore(link, { maxBytes, prefix }),
      async done() {
        const keys = await link.client.keys(`${prefix}*`);
        if (keys.length) await link.client.del(...keys);
        link.close();
      },
    };
  });

  const links: RedisLink[] = [];
  afterAll(() => links.forEach((l) => l.close()));

  it('a second instance on the same Redis reads what the first stored', async () => {
    const prefix = `gw-test:rc:${randomUUID()}:`;
    const open = async () => {
      const l = createRedisLink(redisUrl, 'open', quiet, PATIENT_MS);
      links.push(l);
      await l.settled();
      return redisResponseCacheStore(l, { maxBytes: 1e6, prefix });
    };
    const [a, b] = [await open(), await open()];
    await a.put('k', { value: 'v', accountId: 'acct', keyId: null, model: 'm', expiresAt: new Date(Date.now() + 60_000) });
    expect(await b.get('k')).toMatchObject({ value: 'v' });
    expect(await b.purge({ accountId: 'acct' })).toBe(1);
  });

  it('claims: one caller across instances leads a key until it lets go or the claim expires; a stale release is ignored', async () => {
    const prefix = `gw-test:rc:${randomUUID()}:`;
    const open = async () => {
      const l = createRedisLink(redisUrl, 'open', quiet, PATIENT_MS);
      links.push(l);
      await l.settled();
      return redisResponseCacheStore(l, { maxBytes: 1e6, prefix });
    };
    const [a, b] = [await open(), await open()];
    const token = await a.claim!('k', 60_000);
    expect(token).toEqual(expect.any(String));
    expect(await b.claim!('k', 60_000)).toBeUndefined();
    expect(await b.claimed!('k')).toBe(true);
    await b.release!('k', 'not-its-token');
    expect(await a.claimed!('k')).toBe(true);
    await a.release!('k', token!);
    expect(await b.claimed!('k')).toBe(false);
    const next = await b.claim!('k', 60_000);
    expect(next).toEqual(expect.any(String));
    await b.release!('k', next!);
  });

  it('while Redis cannot answer: a get misses, a put is skipped, a purge throws', async () => {
    const gone = createRedisLink('redis://127.0.0.1:1', 'open', quiet, PATIENT_MS);
    links.push(gone);
    await gone.settled();
    const store = redisResponseCacheStore(gone, { maxBytes: 1e6 });
    expect(await store.get('k')).toBeUndefined();
    await expect(
      store.put('k', { value: 'v', accountId: 'a', keyId: null, model: 'm', expiresAt: new Date(Date.now() + 1000) }),
    ).resolves.toBeUndefined();
    await expect(store.purge({})).rejects.toThrow(/purge/);
    expect([await store.claim!('k', 1000), await store.claimed!('k')]).toEqual(['', false]); // lead unclaimed, wait for nothing
  });
});
