import request from 'supertest';
import { estimateInputTokens } from '@gateway/core';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { gatewayOver, modelOf } from './reliability/support/gateway-over';
import { ALPHA_KEY, BETA_KEY, type TestGateway } from './support/test-gateway';

/**
 * `POST /v1/messages/count_tokens` and `POST /v1beta/models/{model}:countTokens`: the upstream's own count where it
 * can count (Anthropic, Google, the simulator), the gateway's estimate elsewhere (flagged by a header), the
 * caller's error shape for every refusal.
 */
let gw: TestGateway;
let anthropic: FakeUpstream;
let openai: FakeUpstream;
let gemini: FakeUpstream;
beforeAll(async () => {
  anthropic = await startFakeUpstream('anthropic');
  openai = await startFakeUpstream('openai');
  gemini = await startFakeUpstream('gemini');
  gw = await gatewayOver([
    { id: 'claude', dialect: 'anthropic', url: anthropic.url, apiKey: anthropic.apiKey },
    { id: 'gpt', dialect: 'openai', url: openai.url, apiKey: openai.apiKey },
    { id: 'gem', dialect: 'gemini', url: gemini.url, apiKey: gemini.apiKey },
  ]);
});
afterAll(async () => {
  await gw.stop();
  await Promise.all([anthropic.close(), openai.close(), gemini.close()]);
});
beforeEach(() => {
  anthropic.reset();
  openai.reset();
  gemini.reset();
});

const VERSION = { 'anthropic-version': '2023-06-01' };
const weather = {
  name: 'get_weather',
  description: 'Current weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
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
    const created = await request(gw.url)
      .post('/v1/messages')
      .set('x-api-key', BETA_KEY)
      .set(VERSION)
      .send(body('sim-chat', { max_tokens: 64 }));
    expect(created.status).toBe(200);
    expect(counted.body).toEqual({ input_tokens: created.body.usage.input_tokens });
    expect(counted.body.input_tokens).toBeGreaterThan(10);
  });

  it('on an Anthropic upstream: its count, asked with only the fields that bear on the input', async () => {
    const res = await count(
      body(modelOf('claude'), { tools: [weather], max_tokens: 99, temperature: 0.5, stop_sequences: ['x'], stream: true }),
    );
    expect(res.status).toBe(200);
    expect(res.headers['x-gateway-token-count']).toBe('upstream');
    // the fake counts the words of the system prompt and of every text: 3 + 7 + 3 + 3
    expect(res.body).toEqual({ input_tokens: 16 });
    expect(anthropic.requests).toHaveLength(1);
    const sent = anthropic.requests[0];
    expect(sent!.path).toBe('/v1/messages/count_tokens');
    expect(Object.keys(sent!.body).sort()).toEqual(['messages', 'model', 'system', 'tools']);
    expect(sent!.body.model).toBe('claude-sonnet-4-5');
    expect(sent!.body.tools[0]).toMatchObject({ name: 'get_weather', input_schema: weather.input_schema });
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

  it("refusals in Anthropic's shape: no key, no version, no messages, a model outside the group", async () => {
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
    expect(outside.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(anthropic.requests).toHaveLength(0);
  });
});

describe('POST /v1beta/models/{model}:countTokens', () => {
  const contents = [
    { role: 'user', parts: [{ text: 'How warm is it in Lisbon today?' }] },
    { role: 'model', parts: [{ text: 'Let me check.' }] },
    { role: 'user', parts: [{ text: 'Thanks, and tomorrow?' }] },
  ];
  const countIn = (model: string, payload: object, key = BETA_KEY) =>
    request(gw.url).post(`/v1beta/models/${model}:countTokens`).set('x-goog-api-key', key).send(payload);

  it('bare contents on the simulator: the promptTokenCount generateContent reports', async () => {
    const counted = await countIn('sim-chat', { contents });
    expect(counted.status).toBe(200);
    expect(counted.headers['x-gateway-token-count']).toBe('upstream');
    const generated = await request(gw.url)
      .post('/v1beta/models/sim-chat:generateContent')
      .set('x-goog-api-key', BETA_KEY)
      .send({ contents });
    expect(counted.body).toEqual({ totalTokens: generated.body.usageMetadata.promptTokenCount });
  });

  it('a whole generateContentRequest on a Google upstream: its count, system instruction included', async () => {
    const res = await countIn(modelOf('gem'), {
      generateContentRequest: {
        model: `models/${modelOf('gem')}`,
        contents,
        systemInstruction: { parts: [{ text: 'You are terse.' }] },
        generationConfig: { temperature: 0.2 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-gateway-token-count']).toBe('upstream');
    expect(res.body).toEqual({ totalTokens: 16 });
    expect(gemini.requests).toHaveLength(1);
    const sent = gemini.requests[0];
    expect(sent!.path).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    expect(sent!.body.generateContentRequest).toMatchObject({
      model: 'models/gemini-2.5-flash',
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
    });
    expect(sent!.body.generateContentRequest.generationConfig).toBeUndefined();
  });

  it('Anthropic messages counted by a Google upstream, Gemini contents estimated for an OpenAI upstream', async () => {
    const viaGoogle = await count(body(modelOf('gem')));
    expect(viaGoogle.body).toEqual({ input_tokens: 16 });
    expect(gemini.requests[0]!.path).toMatch(/:countTokens$/);
    const estimated = await countIn(modelOf('gpt'), { contents });
    expect(estimated.status).toBe(200);
    expect(estimated.headers['x-gateway-token-count']).toBe('estimated');
    expect(estimated.body.totalTokens).toBeGreaterThan(10);
    expect(openai.requests).toHaveLength(0);
  });

  it("refusals in Google's shape: both or neither of contents and generateContentRequest, bad contents, no key", async () => {
    for (const payload of [{}, { contents, generateContentRequest: { contents } }]) {
      const res = await countIn('sim-chat', payload);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
      expect(res.body.error.message).toContain('generateContentRequest');
    }
    const badContents = await countIn('sim-chat', { contents: [{ role: 'user' }] });
    expect(badContents.status).toBe(400);
    const noKey = await request(gw.url).post('/v1beta/models/sim-chat:countTokens').send({ contents });
    expect(noKey.status).toBe(401);
    expect(noKey.body.error).toMatchObject({ code: 401 });
  });
});

describe('POST /v1/responses/input_tokens', () => {
  const countResponses = (payload: object) =>
    request(gw.url).post('/v1/responses/input_tokens').set('Authorization', `Bearer ${BETA_KEY}`).send(payload);

  it('counted by an upstream that can, estimated for one that cannot; nothing stored', async () => {
    const input = [{ role: 'user', content: 'How warm is it in Lisbon today?' }];
    const viaAnthropic = await countResponses({ model: modelOf('claude'), instructions: 'You are terse.', input });
    expect(viaAnthropic.status).toBe(200);
    expect(viaAnthropic.body).toEqual({ object: 'response.input_tokens', input_tokens: 10 });
    expect(anthropic.requests[0]!.path).toBe('/v1/messages/count_tokens');

    const viaOpenAi = await countResponses({ model: modelOf('gpt'), input });
    expect(viaOpenAi.headers['x-gateway-token-count']).toBe('estimated');
    expect(openai.requests).toHaveLength(0);
    expect(Number((await gw.db.knex('responses').count({ n: '*' }).first())!.n)).toBe(0);
  });

  it("refusals in OpenAI's shape", async () => {
    const noModel = await countResponses({ input: 'hi' });
    expect(noModel.status).toBe(400);
    expect(noModel.body.error).toMatchObject({ type: 'invalid_request_error' });
    const unknownPrevious = await countResponses({ model: 'sim-chat', input: 'hi', previous_response_id: 'resp_nope' });
    expect(unknownPrevious.status).toBe(404);
    expect(unknownPrevious.body.error).toMatchObject({ code: 'response_not_found', param: 'previous_response_id' });
  });
});
