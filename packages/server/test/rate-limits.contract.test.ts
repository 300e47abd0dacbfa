import { describeWithService, externalServiceUrl } from '@gateway/testkit';
import request from 'supertest';
import { randomBytes } from 'node:crypto';
import { ALPHA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

const chat = { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] };
const config = () => testConfigFile({ limits: { requestsPerMinutePerKey: 3 } });

describe('per-key rate limit (in memory)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ listen: false, config: config() });
  });
  afterAll(async () => {
    await gw.stop();
  });

  it("answers 429 with Retry-After in the caller's format once the key is over its limit", async () => {
    for (let i = 0; i < 3; i++)
      expect((await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`).send(chat)).status).toBe(200);
    const res = await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`).send(chat);
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    // other keys are not affected
    expect(
      (await request(gw.app).post('/v1/chat/completions').set('Authorization', 'Bearer sk-beta-test-key-0002').send(chat)).status,
    ).toBe(200);
  });
});

describeWithService('TEST_REDIS_URL', 'per-key rate limit across instances (Redis)', (redisUrl) => {
  // Instances of one deployment share a store, hence the key's (random) id that the budget is counted under.
  const databaseUrl = externalServiceUrl('TEST_DATABASE_URL');
  (databaseUrl ? it : it.skip)('two instances share one budget (skipped without TEST_DATABASE_URL)', async () => {
    // a fresh key per run so earlier runs' counters in Redis do not matter
    const key = `sk-rl-${randomBytes(8).toString('hex')}`;
    const cfg = { ...config(), keys: [{ key, account: 'rl', group: 'default' }] };
    const env = { redisUrl, databaseUrl, databaseSchema: `rl_${randomBytes(4).toString('hex')}` };
    const a = await startTestGateway({ listen: false, config: cfg, env });
    const b = await startTestGateway({ listen: false, config: cfg, env });
    try {
      const send = (gw: TestGateway) => request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${key}`).send(chat);
      expect((await send(a)).status).toBe(200);
      expect((await send(b)).status).toBe(200);
      expect((await send(a)).status).toBe(200);
      expect((await send(b)).status).toBe(429);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
