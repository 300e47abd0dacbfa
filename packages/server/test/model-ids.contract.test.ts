import request from 'supertest';
import { buildConfig } from '../src/config';
import { DEFAULT_CONFIG } from '../src/default-config';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/** Alpha's group has sim-chat, not sim-chat-plain; beta sees every model. */
let gw: TestGateway;
beforeAll(async () => {
  const base = testConfigFile();
  gw = await startTestGateway({
    config: {
      ...base,
      models: [
        ...base.models.map((m) => (m.id === 'sim-chat' ? { ...m, aliases: ['claude-*', 'gpt-5*', 'exact-alias'] } : m)),
        { id: 'sim-chat-plain', kind: 'text', provider: 'sim', aliases: ['claude-haiku-*', 'sim-chat*'] },
      ],
    },
  });
});
afterAll(() => gw.stop());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const chat = (model: string, key = BETA_KEY) =>
  request(gw.app)
    .post('/v1/chat/completions')
    .set(bearer(key))
    .send({ model, messages: [{ role: 'user', content: 'hi' }] });
const responses = (model: string) => request(gw.app).post('/v1/responses').set(bearer(BETA_KEY)).send({ model, input: 'hi' });
const messages = (model: string, key = BETA_KEY) =>
  request(gw.app)
    .post('/v1/messages')
    .set({ 'x-api-key': key, 'anthropic-version': '2023-06-01' })
    .send({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
const gemini = (model: string, key = BETA_KEY) =>
  request(gw.app)
    .post(`/v1beta/models/${model}:generateContent`)
    .set('x-goog-api-key', key)
    .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });

describe('an unknown model id is a 404 in each format’s own not-found shape, naming the id', () => {
  it('OpenAI chat and responses: model_not_found, invalid_request_error, param model', async () => {
    for (const res of [await chat('nope-1'), await responses('nope-1')]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'model_not_found', type: 'invalid_request_error', param: 'model' });
      expect(res.body.error.message).toContain('nope-1');
      expect(res.headers['x-should-retry']).toBe('false');
    }
  });

  it('Anthropic: not_found_error with message "model: <id>"', async () => {
    const res = await messages('nope-2');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: 'model: nope-2' } });
  });

  it('Gemini: NOT_FOUND with "models/<id> is not found"', async () => {
    const res = await gemini('nope-3');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(res.body.error.message).toMatch(/^models\/nope-3 is not found/);
  });

  it('the two flat video formats: {code: "model_not_found", message}', async () => {
    const tasks = await request(gw.app)
      .post('/v1/contents/generations/tasks')
      .set(bearer(BETA_KEY))
      .send({ model: 'nope-4', content: [{ type: 'text', text: 'a cat' }] });
    const predict = await request(gw.app)
      .post('/v1beta/models/nope-4:predictLongRunning')
      .set('x-goog-api-key', BETA_KEY)
      .send({ instances: [{ prompt: 'a cat' }] });
    for (const res of [tasks, predict]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'model_not_found', message: expect.stringContaining('nope-4') });
    }
  });
});

describe('a model outside the key group stays 503 but reads as final, not as an outage', () => {
  it('sends x-should-retry: false and no overload type', async () => {
    const openai = await chat('sim-chat-plain', ALPHA_KEY);
    const anthropic = await messages('sim-chat-plain', ALPHA_KEY);
    const google = await gemini('sim-chat-plain', ALPHA_KEY);
    for (const res of [openai, anthropic, google]) {
      expect(res.status).toBe(503);
      expect(res.headers['x-should-retry']).toBe('false');
    }
    expect(anthropic.body.error.type).not.toBe('overloaded_error');
    expect(google.body.error.status).not.toBe('UNAVAILABLE');
  });
});

describe('aliases and patterns route client-facing ids to a configured model', () => {
  it('an exact alias and a pattern reach the model; the most specific pattern wins', async () => {
    expect((await chat('exact-alias')).status).toBe(200);
    expect((await chat('gpt-5.1-codex')).status).toBe(200);
    expect((await messages('claude-sonnet-4-5-20250929')).status).toBe(200);
    // claude-haiku-* (sim-chat-plain) is more specific than claude-* (sim-chat): alpha may use only sim-chat
    expect((await messages('claude-haiku-4-5', ALPHA_KEY)).status).toBe(503);
    expect((await messages('claude-opus-4-1', ALPHA_KEY)).status).toBe(200);
    expect((await gemini('gpt-5', ALPHA_KEY)).status).toBe(200);
  });

  it('an exact id wins over a pattern that also matches it', async () => {
    // sim-chat-plain's pattern sim-chat* matches "sim-chat", yet the model sim-chat answers (alpha may use only it)
    expect((await chat('sim-chat', ALPHA_KEY)).status).toBe(200);
    expect((await chat('sim-chat-mini', ALPHA_KEY)).status).toBe(503);
  });

  it('model lists show exact ids only', async () => {
    const list = await request(gw.app).get('/v1/models').set(bearer(BETA_KEY));
    const ids = list.body.data.map((m: { id: string }) => m.id);
    expect(ids).toContain('sim-chat');
    expect(ids.filter((id: string) => id.includes('*') || id === 'exact-alias')).toEqual([]);
  });
});

describe('alias config', () => {
  const withAliases = (aliases: Record<string, string[]>) => {
    const base = testConfigFile();
    return () => buildConfig('(test)', { ...base, models: base.models.map((m) => ({ ...m, aliases: aliases[m.id] })) });
  };

  it('refuses an exact alias that is a model id or already routes elsewhere, naming the field', () => {
    expect(withAliases({ 'sim-chat': ['sim-image'] })).toThrow(/models\.0\.aliases\.0: alias "sim-image" is already a model id/);
    expect(withAliases({ 'sim-chat': ['x'], 'sim-image': ['x'] })).toThrow(/models\.1\.aliases\.0: alias "x" already routes to "sim-chat"/);
    expect(withAliases({ 'sim-chat': ['claude-*'], 'sim-image': ['claude-*'] })).not.toThrow();
  });
});

describe('the zero-config default routes the coding agents’ default ids', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 'sim-chat'],
    ['claude-haiku-4-5-20251001', 'sim-chat'],
    ['gpt-5-codex', 'sim-chat'],
    ['gpt-5.1-codex-max', 'sim-chat'],
    ['gemini-2.5-pro', 'sim-chat'],
    ['gemini-2.5-flash-lite', 'sim-chat'],
    ['gpt-image-1', 'sim-image'],
    ['gemini-2.5-flash-image', 'sim-image'],
    ['veo-3.0-generate-001', 'sim-video-2.5'],
  ])('%s → %s', (id, target) => {
    expect(buildConfig('(default)', DEFAULT_CONFIG).catalogue.get(id)?.id).toBe(target);
  });
});
