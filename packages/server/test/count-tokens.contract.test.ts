import request from 'supertest';
import { estimateInputTokens } from '@gateway/core';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { gatewayOver, modelOf } from './reliability/support/gateway-over';
import { ALPHA_KEY, BETA_KEY, type TestGateway } from './support/test-gateway';

/**
 * `POST /v1/messages/count_tokens`: the upstream's own count where it can count (Anthropic, the simulator), the
 * gateway's estimate elsewhere (flagged by a header), Anthropic's error shape for every refusal.
 */
let gw: TestGateway;
let anthropic: FakeUpstream;
let openai: FakeUpstream;
beforeAll(async () => {
  anthropic = await startFakeUpstream('anthropic');
  openai = await startFakeUpstream('openai');
  gw = await gatewayOver([
    { id: 'claude', dialect: 'anthropic', url: anthropic.url, apiKey: anthropic.apiKey },
    { id: 'gpt', dialect: 'openai', url: openai.url, apiKey: openai.apiKey },
  ]);
});
afterAll(async () => {
  await gw.stop();
  await anthropic.close();
  await openai.close();
});
beforeEach(() => {
  anthropic.reset();
  openai.reset();
});

const VERSION = { 'anthropic-version': '2023-06-01' };
const weather = { name: 'get_weather', description: 'Current weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const body = (model: string, extra: object = {}) => ({
  model,
  system: 'You are terse.',
  messages: [
    { role: 'user', content: 'How warm is it in Lisbon today?' },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Thanks, and tomorrow?' }] },
  ],
  ...extra,
});

function count(payload: object, key = BETA_KEY, headers: Record<string, string> = VERSION) {
  return request(gw.url).post('/v1/messages/count_tokens').set('x-api-key', key).set(headers).send(payload);
}

describe('POST /v1/messages/count_tokens', () => {
  it('on the simulator: exactly the input_tokens a create with the same body reports', async () => {
    const counted = await count(body('sim-chat'));
    expect(counted.status).toBe(200);
    expect(counted.headers['x-gateway-token-count']).toBe('upstream');
    expect(counted.headers['request-id']).toBeTruthy();
    const created = await request(gw.url).post('/v1/messages').set('x-api-key', BETA_KEY).set(VERSION).send(body('sim-chat', { max_tokens: 64 }));
    expect(created.status).toBe(200);
    expect(counted.body).toEqual({ input_tokens: created.body.usage.input_tokens });
    expect(counted.body.input_tokens).toBeGreaterThan(10);
  });

  it('on an Anthropic upstream: its count, asked with only the fields that bear on the input', async () => {
    const res = await count(body(modelOf('claude'), { tools: [weather], max_tokens: 99, temperature: 0.5, stop_sequences: ['x'], stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers['x-gateway-token-count']).toBe('upstream');
    // the fake counts the words of the system prompt and of every text: 3 + 7 + 3 + 3
    expect(res.body).toEqual({ input_tokens: 16 });
    expect(anthropic.requests).toHaveLength(1);
    const sent = anthropic.requests[0];
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expect(Object.keys(sent.body).sort()).toEqual(['messages', 'model', 'system', 'tools']);
    expect(sent.body.model).toBe('claude-sonnet-4-5');
    expect(sent.body.tools[0]).toMatchObject({ name: 'get_weather', input_schema: weather.input_schema });
  });

  it('an upstream that cannot count: the gateway estimates, says so, and sends nothing upstream', async () => {
    const payload = body(modelOf('gpt'), { tools: [weather] });
    const res = await count(payload);
    expect(res.status).toBe(200);
    expect(res.headers['x-gateway-token-count']).toBe('estimated');
    expect(openai.requests).toHaveLength(0);
    const expected = estimateInputTokens({
      system: payload.system,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'How warm is it in Lisbon today?' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks, and tomorrow?' }] },
      ],
      tools: [{ name: weather.name, description: weather.description, parameters: weather.input_schema }],
    });
    expect(res.body).toEqual({ input_tokens: expected });
  });

  it("an upstream's retryable failure falls back to the estimate; a refusal is the caller's error", async () => {
    anthropic.enqueue({ status: 503 });
    const fellBack = await count(body(modelOf('claude')));
    expect(fellBack.status).toBe(200);
    expect(fellBack.headers['x-gateway-token-count']).toBe('estimated');

    anthropic.enqueue({ status: 400, errorMessage: 'messages: bad block' });
    const refused = await count(body(modelOf('claude')));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('refusals in Anthropic\'s shape: no key, no version, no messages, a model outside the group', async () => {
    const noKey = await request(gw.url).post('/v1/messages/count_tokens').set(VERSION).send(body('sim-chat'));
    expect(noKey.status).toBe(401);
    expect(noKey.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    const noVersion = await count(body('sim-chat'), BETA_KEY, {});
    expect(noVersion.status).toBe(400);
    expect(noVersion.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });

    const noMessages = await count({ model: 'sim-chat' });
    expect(noMessages.status).toBe(400);
    expect(noMessages.body.error.message).toContain('messages');

    // sk-alpha's group (default) sees only the simulator's models
    const outside = await count(body(modelOf('claude')), ALPHA_KEY);
    expect(outside.status).toBe(503);
    expect(outside.body).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(anthropic.requests).toHaveLength(0);
  });
});
