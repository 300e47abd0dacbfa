/**
 * Single flight of the response cache across instances (docs/cache.md, "Single flight"): two gateway apps sharing one
 * Redis (TEST_REDIS_URL) and one counting fake OpenAI-compatible upstream on 127.0.0.1 that holds its answers until
 * the test lets them go. The second app's identical call waits for the first app's entry instead of calling upstream.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createRedisLink, type RedisLink } from '@gateway/rate-limit-redis';
import { describeWithService, eventually } from '@gateway/testkit';
import { DEFAULT_CONFIG } from '../src/default-config';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/** Chat completions that answer only when released, counting the calls. */
async function startHeldUpstream() {
  const held: Array<() => void> = [];
  let calls = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      held.push(() => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: `chatcmpl-held${calls}`,
            object: 'chat.completion',
            created: 1_700_000_000,
            model: 'gpt-up',
            choices: [{ index: 0, message: { role: 'assistant', content: 'one answer for both' }, finish_reason: 'stop', logprobs: null }],
            usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 },
          }),
        );
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get calls() {
      return calls;
    },
    releaseAll: () => held.splice(0).forEach((answer) => answer()),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describeWithService('TEST_REDIS_URL', 'response cache single flight across instances on Redis', (redisUrl) => {
  // a model id of this run: entries and claims of an earlier run on the same Redis are another model's
  const MODEL = `shared-${randomUUID().slice(0, 8)}`;
  let upstream: Awaited<ReturnType<typeof startHeldUpstream>>;
  let a: TestGateway;
  let b: TestGateway;
  let link: RedisLink;

  beforeAll(async () => {
    upstream = await startHeldUpstream();
    const config = testConfigFile({
      providers: [...testConfigFile().providers, { id: 'up', type: 'openai-compatible', baseUrl: upstream.url, apiKey: 'sk-up-0001' }],
      models: [...DEFAULT_CONFIG.models, { id: MODEL, kind: 'text', provider: 'up', upstreamModel: 'gpt-up', cache: { ttlSeconds: 600 } }],
    });
    [a, b] = [
      await startTestGateway({ listen: false, env: { redisUrl }, config }),
      await startTestGateway({ listen: false, env: { redisUrl }, config }),
    ];
    link = createRedisLink(redisUrl, 'open', { warn: () => undefined }, 2000);
    await link.settled();
  });
  afterAll(async () => {
    upstream?.releaseAll();
    await Promise.all([a?.stop(), b?.stop(), upstream?.close()]);
    link?.close();
  });

  const ask = (gw: TestGateway) =>
    request(gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${BETA_KEY}`)
      .send({ model: MODEL, messages: [{ role: 'user', content: 'the same question on two instances' }] })
      .then((r) => r);

  it("an identical call on the other instance waits for the leader's entry: one upstream call, a hit", async () => {
    // Redis's own view of the follower: it checks the leader's claim while it waits
    const monitor = await link.client.monitor();
    let waiting = false;
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (String(args[0]).toLowerCase() === 'exists' && String(args[1]).includes('lock:')) waiting = true;
    });
    try {
      const first = ask(a);
      await eventually(() => upstream.calls === 1, 20_000);
      const second = ask(b);
      // before single flight across instances, the second call would reach the upstream here
      await eventually(() => waiting || upstream.calls > 1, 20_000);
      expect(upstream.calls).toBe(1);
      upstream.releaseAll();
      const [led, followed] = await Promise.all([first, second]);
      expect([led.status, followed.status]).toEqual([200, 200]);
      expect([led.headers['x-gateway-cache'], followed.headers['x-gateway-cache']]).toEqual(['miss', 'hit']);
      expect(followed.body.choices[0].message.content).toBe('one answer for both');
      expect(upstream.calls).toBe(1);
    } finally {
      monitor.disconnect();
    }
  });
});
