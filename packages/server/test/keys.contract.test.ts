import { eventually } from '@gateway/testkit';
import request from 'supertest';
import { DEFAULT_CONFIG } from '../src/default-config';
import { ALPHA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/**
 * Keys' own settings through the admin API, enforced on the real app: expiry (an injected clock), a model allowlist
 * refused like a model outside the group in each caller's format, and per-key limits.
 */
const ADMIN = 'sk-admin-keys-0001';
const T0 = Date.parse('2030-01-01T00:00:00Z');
let now = T0;

const chat = (model = 'sim-chat') => ({ model, messages: [{ role: 'user', content: 'hi' }] });
const message = (model = 'sim-chat') => ({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

describe('keys: name, expiry, allowlist, limits', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    const config = testConfigFile({ models: [...DEFAULT_CONFIG.models, { id: 'sim-chat-2', kind: 'text', provider: 'sim' }] });
    gw = await startTestGateway({ listen: false, config, env: { adminKey: ADMIN, keyCacheTtlMs: 0 }, clock: () => new Date(now) });
    await request(gw.app).post('/admin/accounts').set('Authorization', `Bearer ${ADMIN}`).send({ id: 'acme' });
  });
  afterAll(async () => gw.stop());
  beforeEach(() => {
    now = T0;
  });

  const admin = (method: 'get' | 'post' | 'patch', path: string) => request(gw.app)[method](path).set('Authorization', `Bearer ${ADMIN}`);
  const newKey = async (settings: Record<string, unknown>) => {
    const res = await admin('post', '/admin/keys').send({ account: 'acme', group: 'vip', ...settings });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string } & Record<string, unknown>;
  };
  const openai = (key: string, body: object = chat()) =>
    request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${key}`).send(body);
  const anthropic = (key: string, body: object = message()) =>
    request(gw.app).post('/v1/messages').set({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }).send(body);

  it('creates a key with its settings, shows them in the list and by id, and changes them with PATCH', async () => {
    const k = await newKey({
      name: 'ci runner',
      expires_at: '2030-06-01T00:00:00Z',
      models: ['sim-chat', 'gpt-4o'], // an alias names its model: stored once, by the model's own id
      limits: { requests_per_minute: 100, concurrent_streams: 2 },
    });
    const expected = {
      object: 'api_key',
      id: k.id,
      account: 'acme',
      group: 'vip',
      name: 'ci runner',
      expires_at: '2030-06-01T00:00:00.000Z',
      models: ['sim-chat'],
      limits: { requests_per_minute: 100, tokens_per_minute: null, concurrent_streams: 2 },
      revoked_at: null,
    };
    expect(k).toMatchObject(expected);
    expect((await admin('get', `/admin/keys/${k.id}`)).body).toMatchObject(expected);
    const listed = (await admin('get', '/admin/keys?account=acme')).body.data.find((x: { id: string }) => x.id === k.id);
    expect(listed).toMatchObject(expected);
    expect(JSON.stringify(listed)).not.toContain(k.key);

    const patched = await admin('patch', `/admin/keys/${k.id}`).send({
      name: 'renamed',
      models: null,
      limits: { tokens_per_minute: 5000 },
    });
    expect(patched.status).toBe(200);
    // limits given in part keep the others
    expect(patched.body).toMatchObject({
      name: 'renamed',
      models: null,
      expires_at: '2030-06-01T00:00:00.000Z',
      limits: { requests_per_minute: 100, tokens_per_minute: 5000, concurrent_streams: 2 },
    });
  });

  it.each([
    [{ expires_at: 'next tuesday' }, 'invalid_expires_at', 'expires_at'],
    [{ expires_at: 1893456000 }, 'invalid_expires_at', 'expires_at'],
    [{ models: ['sim-chat', 'no-such-model'] }, 'invalid_models', 'models'],
    [{ models: [] }, 'invalid_models', 'models'],
    [{ limits: { requests_per_minute: 0 } }, 'invalid_limits', 'limits.requests_per_minute'],
    [{ limits: { requests_per_minute: 1.5 } }, 'invalid_limits', 'limits.requests_per_minute'],
    [{ limits: { rpm: 5 } }, 'unknown_field', 'rpm'],
    [{ expiresAt: '2030-01-01T00:00:00Z' }, 'unknown_field', 'expiresAt'],
    [{ name: 42 }, 'invalid_name', 'name'],
  ])('refuses %j with a clear 400 and stores nothing', async (settings, code, param) => {
    const before = (await admin('get', '/admin/keys?account=acme')).body.data.length;
    const res = await admin('post', '/admin/keys').send({ account: 'acme', group: 'vip', ...settings });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code, param });
    expect((await admin('get', '/admin/keys?account=acme')).body.data).toHaveLength(before);
  });

  it('an allowlist is a subset of the group: a model of the group outside it cannot be given', async () => {
    const res = await admin('post', '/admin/keys').send({ account: 'acme', group: 'default', models: ['sim-chat-2'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_models', param: 'models' });
    expect(res.body.error.message).toContain('group "default"');
  });

  it('refuses an expired key with 401 key_expired in the caller format, by the injected clock', async () => {
    const k = await newKey({ expires_at: '2030-01-01T00:10:00Z' });
    expect((await openai(k.key)).status).toBe(200);
    now = Date.parse('2030-01-01T00:10:00Z');
    const o = await openai(k.key);
    expect(o.status).toBe(401);
    expect(o.body.error).toMatchObject({ code: 'key_expired', type: 'authentication_error' });
    const a = await anthropic(k.key);
    expect(a.status).toBe(401);
    expect(a.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(a.body.error.message).toContain('expired');
    // PATCH lifts the expiry at once (the cache forgets the key)
    expect((await admin('patch', `/admin/keys/${k.id}`).send({ expires_at: null })).status).toBe(200);
    expect((await openai(k.key)).status).toBe(200);
  });

  it('refuses a model outside the allowlist exactly as one outside the group, in each format', async () => {
    const k = await newKey({ models: ['sim-chat'] });
    expect((await openai(k.key)).status).toBe(200);
    expect((await anthropic(k.key)).status).toBe(200);
    // ALPHA_KEY's group (default) lacks sim-chat-2: the allowlist refusal must read the same
    for (const call of [openai, anthropic]) {
      const outsideGroup = await call(ALPHA_KEY, call === openai ? chat('sim-chat-2') : message('sim-chat-2'));
      const outsideList = await call(k.key, call === openai ? chat('sim-chat-2') : message('sim-chat-2'));
      expect(outsideList.status).toBe(outsideGroup.status);
      expect(outsideList.status).toBeGreaterThanOrEqual(400);
      expect(outsideList.body.error.type).toBe(outsideGroup.body.error.type);
      expect(outsideList.body.error.code).toBe(outsideGroup.body.error.code);
    }
    const images = await request(gw.app)
      .post('/v1/images/generations')
      .set('Authorization', `Bearer ${k.key}`)
      .send({ model: 'sim-image', prompt: 'a cat' });
    expect(images.body.error.code).toBe('model_not_in_group');
    const models = await request(gw.app).get('/v1/models').set('Authorization', `Bearer ${k.key}`);
    expect(models.body.data.map((m: { id: string }) => m.id)).toEqual(['sim-chat']);
    const gemini = await request(gw.app).get('/v1beta/models/sim-image').set('x-goog-api-key', k.key);
    expect(gemini.status).toBe(404);
  });

  it('holds a key to its own requests per minute; other keys go on', async () => {
    const k = await newKey({ limits: { requests_per_minute: 2 } });
    const other = await newKey({});
    expect((await openai(k.key)).status).toBe(200);
    expect((await openai(k.key)).status).toBe(200);
    const third = await anthropic(k.key);
    expect(third.status).toBe(429);
    expect(third.body.error.type).toBe('rate_limit_error');
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const fourth = await openai(k.key);
    expect(fourth.body.error.code).toBe('rate_limit_exceeded');
    expect(fourth.body.error.message).toContain('2 requests per minute');
    expect((await openai(other.key)).status).toBe(200);
  });

  it('holds a key to its tokens per minute once its calls used them', async () => {
    const k = await newKey({ limits: { tokens_per_minute: 5 } });
    const first = await openai(k.key);
    expect(first.status).toBe(200);
    expect(first.body.usage.total_tokens).toBeGreaterThanOrEqual(5);
    await eventually(async () => (await openai(k.key)).status === 429);
    const refused = await openai(k.key);
    expect(refused.body.error.code).toBe('token_rate_limit_exceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
