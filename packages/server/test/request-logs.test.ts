import request from 'supertest';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { PROVIDER_OF } from './reliability/support/gateway-over';
import { capturedLog } from './support/captured-log';
import { bootstrapConfigKeys } from '../src/bootstrap';
import { buildConfig } from '../src/config';
import { createGateway, type Gateway } from '../src/gateway';
import { ALPHA_KEY, BETA_KEY, inMemoryGatewayEnv, testConfigFile } from './support/test-gateway';

/** The lines a request's failures leave: each names the request, its account and key; an upstream's words come redacted. */
describe('log lines about a request', () => {
  let gw: Gateway;
  let upstream: FakeUpstream;
  const { logger, lines } = capturedLog();
  beforeAll(async () => {
    upstream = await startFakeUpstream('openai');
    const base = testConfigFile();
    const file = testConfigFile({
      providers: [
        ...base.providers,
        { id: 'gpt', type: 'openai', options: PROVIDER_OF.openai.options, baseUrl: upstream.url, apiKey: upstream.apiKey },
      ],
      models: [...base.models, { id: 'm-gpt', kind: 'text', provider: 'gpt', upstreamModel: PROVIDER_OF.openai.upstreamModel }],
      limits: { requestsPerMinutePerKey: 1 },
    });
    gw = await createGateway(await inMemoryGatewayEnv(), { config: buildConfig('t', file), logger });
    await bootstrapConfigKeys(gw.stores, gw.config);
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });

  /** The lines with this request id, once its request line is out (written as the response closes). */
  async function linesOf(requestId: string) {
    for (let i = 0; i < 100 && !lines.some((l) => l.requestId === requestId && /^request/.test(String(l.message))); i++)
      await new Promise((r) => setTimeout(r, 20));
    return lines.filter((l) => l.requestId === requestId);
  }

  it('an upstream failure: its line names the request id, account and key, with an excerpt of the upstream’s message without the provider key', async () => {
    upstream.setDefault({ status: 500, errorMessage: `Shard 7 is overloaded (request made with key ${upstream.apiKey})` });
    const res = await request(gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${BETA_KEY}`)
      .send({ model: 'm-gpt', messages: [{ role: 'user', content: 'hello' }] });
    expect(res.status).toBeGreaterThanOrEqual(500);
    const mine = await linesOf(res.headers['x-request-id']!);
    const failed = mine.find((l) => l.message === 'upstream attempt failed');
    expect(failed).toMatchObject({
      level: 'warn',
      account: 'beta',
      key: expect.any(String),
      model: 'm-gpt',
      provider: 'gpt',
      upstreamStatus: 500,
    });
    expect(failed!.upstreamMessage).toContain('Shard 7 is overloaded');
    expect(failed!.upstreamMessage).toContain('[redacted]');
    const request_ = mine.find((l) => l.message === 'request');
    expect(request_).toMatchObject({ account: 'beta', key: failed!.key });
    // neither the provider's key nor the caller's appears anywhere
    const all = JSON.stringify(lines);
    expect(all).not.toContain(upstream.apiKey);
    expect(all).not.toContain(BETA_KEY);
  });

  it('a 429 refusal: its line names the key and the model asked for', async () => {
    const ask = () =>
      request(gw.app)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${ALPHA_KEY}`)
        .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'hello' }] });
    expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    const [line] = (await linesOf(refused.headers['x-request-id']!)).filter((l) => l.message === 'request');
    expect(line).toMatchObject({ status: 429, account: 'alpha', key: expect.any(String), model: 'sim-chat' });
    expect(JSON.stringify(lines)).not.toContain(ALPHA_KEY);
  });
});
