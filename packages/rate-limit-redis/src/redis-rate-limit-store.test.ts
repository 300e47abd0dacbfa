import { randomUUID } from 'node:crypto';
import { describeWithService } from '@gateway/testkit';
import { createRedisLink, type RedisLink } from './redis-link';
import { redisRateLimitStore } from './redis-rate-limit-store';

const quiet = { warn: () => undefined };
/** a budget a busy test machine always meets: these tests are about what is counted, not about the 50 ms bound */
const PATIENT_MS = 2000;

describeWithService('TEST_REDIS_URL', 'redisRateLimitStore', (redisUrl) => {
  const links: RedisLink[] = [];
  const link = async (url = redisUrl) => {
    const l = createRedisLink(url, 'open', quiet, PATIENT_MS);
    links.push(l);
    await l.settled();
    return l;
  };
  afterAll(() => links.forEach((l) => l.close()));

  it('counts a minute across two instances on one Redis', async () => {
    const [a, b] = [redisRateLimitStore(await link()), redisRateLimitStore(await link())];
    const key = randomUUID();
    await a.addPoints('gw-test', key, 2);
    expect(await b.addPoints('gw-test', key, 1)).toMatchObject({ consumed: 3 });
    expect((await a.peekPoints('gw-test', key))!.msBeforeNext).toBeGreaterThan(0);
  });

  it("shares a holder's stream slots between instances and frees one on release", async () => {
    const [a, b] = [redisRateLimitStore(await link()), redisRateLimitStore(await link())];
    const holder = randomUUID();
    const release = await a.takeSlot(holder, 1);
    expect(release).toBeInstanceOf(Function);
    expect(await b.takeSlot(holder, 1)).toBeNull();
    release!();
    await new Promise((r) => setTimeout(r, 50));
    expect(await b.takeSlot(holder, 1)).toBeInstanceOf(Function);
  });

  it('answers undefined while Redis cannot answer, so the rule applies RATE_LIMIT_ON_REDIS_ERROR', async () => {
    const gone = redisRateLimitStore(await link('redis://127.0.0.1:1'));
    expect(await gone.addPoints('gw-test', 'k', 1)).toBeUndefined();
    expect(await gone.takeSlot('h', 1)).toBeUndefined();
  });
});
