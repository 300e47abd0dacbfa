import request from 'supertest';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { gatewayOver, modelOf } from './reliability/support/gateway-over';
import { BETA_KEY, type TestGateway } from './support/test-gateway';

/**
 * Each usage row keeps the provider's own request id (its `x-request-id` / `request-id` header), so an operator can
 * quote it to the provider: for answers, streams and upstream failures alike. `GET /v1/usage` shows it.
 */
let gw: TestGateway;
let openai: FakeUpstream;
let anthropic: FakeUpstream;
beforeAll(async () => {
  openai = await startFakeUpstream('openai');
  anthropic = await startFakeUpstream('anthropic');
  gw = await gatewayOver([
    { id: 'gpt', dialect: 'openai', url: openai.url, apiKey: openai.apiKey },
    { id: 'claude', dialect: 'anthropic', url: anthropic.url, apiKey: anthropic.apiKey },
  ]);
});
afterAll(async () => {
  await gw.stop();
  await openai.close();
  await anthropic.close();
});

async function usageRowOf(requestId: string): Promise<Record<string, unknown>> {
  await gw.usage.flush();
  const res = await request(gw.url).get(`/v1/usage?request_id=${requestId}`).set('Authorization', `Bearer ${BETA_KEY}`);
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0];
}

const chat = (model: string, extra: object = {}) =>
  request(gw.url)
    .post('/v1/chat/completions')
    .set('Authorization', `Bearer ${BETA_KEY}`)
    .send({ model, messages: [{ role: 'user', content: 'hello' }], ...extra });

describe('the upstream request id on usage rows', () => {
  it('a non-streaming answer', async () => {
    openai.enqueue({ headers: { 'x-request-id': 'req_openai_answer_1' } });
    const res = await chat(modelOf('gpt'));
    expect(res.status).toBe(200);
    expect(await usageRowOf(res.headers['x-request-id']!)).toMatchObject({
      status: 'ok',
      provider: 'gpt',
      upstream_request_id: 'req_openai_answer_1',
    });
  });

  it('a stream, from a provider that names the header request-id', async () => {
    anthropic.enqueue({ headers: { 'request-id': 'req_anthropic_stream_1' } });
    const res = await chat(modelOf('claude'), { stream: true });
    expect(res.status).toBe(200);
    expect(res.text).toContain('[DONE]');
    expect(await usageRowOf(res.headers['x-request-id']!)).toMatchObject({
      status: 'ok',
      provider: 'claude',
      upstream_request_id: 'req_anthropic_stream_1',
    });
  });

  it('an upstream failure', async () => {
    openai.enqueue({ status: 400, errorMessage: 'bad request upstream', headers: { 'x-request-id': 'req_openai_failed_1' } });
    const res = await chat(modelOf('gpt'));
    expect(res.status).toBe(400);
    expect(await usageRowOf(res.headers['x-request-id']!)).toMatchObject({
      status: 'error',
      error_code: 'upstream_invalid_request',
      upstream_request_id: 'req_openai_failed_1',
    });
  });

  it('none where the upstream has no request id (the simulator)', async () => {
    const res = await chat('sim-chat');
    expect(res.status).toBe(200);
    expect(await usageRowOf(res.headers['x-request-id']!)).toMatchObject({ status: 'ok', upstream_request_id: null });
  });
});
