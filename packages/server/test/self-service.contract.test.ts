import request from 'supertest';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway, chatAs } from './support/test-gateway';

/**
 * An account admin manages the account's own keys through /v1/keys, never beyond what the platform admin granted the
 * account (its group, its quota, its rate-limit ceilings), and rotates a key with a grace time read from an injected
 * clock. ALPHA_KEY (account alpha, group default) and BETA_KEY (account beta) are config-file keys: account admins.
 */
const ADMIN = 'sk-admin-self-service-01';
const T0 = Date.parse('2030-01-01T00:00:00Z');
let now = T0;

describe('self-service keys (/v1/keys)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    const config = testConfigFile({ limits: { requestsPerMinutePerKey: 600, concurrentStreamsPerKey: 4 } });
    gw = await startTestGateway({ listen: false, config, env: { adminKey: ADMIN, keyCacheTtlMs: 0 }, clock: () => new Date(now) });
    const quota = await request(gw.app)
      .put('/admin/accounts/alpha/quota')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ credit_limit: 100 });
    expect(quota.status).toBe(200);
  }, 120_000);
  afterAll(async () => gw?.stop());
  beforeEach(() => {
    now = T0;
  });

  const as = (key: string) => ({
    get: (path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body: object) => request(gw.app).post(path).set('Authorization', `Bearer ${key}`).send(body),
    patch: (path: string, body: object) => request(gw.app).patch(path).set('Authorization', `Bearer ${key}`).send(body),
    delete: (path: string) => request(gw.app).delete(path).set('Authorization', `Bearer ${key}`),
  });
  const alpha = as(ALPHA_KEY);
  const chat = (key: string) => chatAs(gw.app, key);
  const create = async (body: object = {}, by = alpha) => {
    const res = await by.post('/v1/keys', body);
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string } & Record<string, unknown>;
  };

  it("creates, lists, changes and revokes a key of the caller's own account", async () => {
    const k = await create({ name: 'ci', limits: { requests_per_minute: 100 }, budget: { credit_limit: 50, period: 'monthly' } });
    expect(k).toMatchObject({ object: 'api_key', account: 'alpha', group: 'default', role: 'member', name: 'ci' });
    expect(k.key).toMatch(/^sk-/);
    expect((await chat(k.key)).status).toBe(200);

    const listed = await alpha.get('/v1/keys');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(k.id);
    expect(listed.body.data.every((x: { account: string }) => x.account === 'alpha')).toBe(true);
    expect(JSON.stringify(listed.body)).not.toContain(k.key);

    const changed = await alpha.patch(`/v1/keys/${k.id}`, { name: 'ci-2', role: 'admin' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: k.id, name: 'ci-2', role: 'admin', budget: { credit_limit: 50 } });

    const revoked = await alpha.delete(`/v1/keys/${k.id}`);
    expect(revoked.status).toBe(200);
    expect((await chat(k.key)).status).toBe(401);
  });

  it('refuses "account": a key made here belongs to the caller\'s account', async () => {
    const res = await alpha.post('/v1/keys', { account: 'beta' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'unknown_field', param: 'account' });
  });

  it.each([
    ["a group other than the account's", { group: 'vip' }, 'exceeds_group', 'default'],
    ["a model outside the account's group", { models: ['sim-video-2.5'] }, 'exceeds_group', 'default'],
    ["a budget above the account's quota", { budget: { credit_limit: 150 } }, 'exceeds_quota', '100'],
    ['an unlimited budget under a quota', { budget: { credit_limit: null } }, 'exceeds_quota', '100'],
    ['a rate limit above the ceiling', { limits: { requests_per_minute: 1000 } }, 'exceeds_rate_limit', '600'],
    ['a stream limit above the ceiling', { limits: { concurrent_streams: 5 } }, 'exceeds_rate_limit', '4'],
  ])('refuses %s with a 400 naming the bound, and writes nothing', async (_n, body, code, bound) => {
    const before = (await alpha.get('/v1/keys')).body.data.length;
    const res = await alpha.post('/v1/keys', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.code.startsWith('exceeds_')).toBe(true);
    expect(res.body.error.message).toContain(bound);
    expect((await alpha.get('/v1/keys')).body.data.length).toBe(before);
  });

  it('refuses a change beyond the bounds and keeps the key as it was', async () => {
    const k = await create({ budget: { credit_limit: 10 } });
    const res = await alpha.patch(`/v1/keys/${k.id}`, { budget: { credit_limit: 1000 }, name: 'wider' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('exceeds_quota');
    const after = (await alpha.get('/v1/keys')).body.data.find((x: { id: string }) => x.id === k.id);
    expect(after).toMatchObject({ name: null, budget: { credit_limit: 10 } });
  });

  it('an account admin narrowed to some models hands out no wider key', async () => {
    const narrow = await create({ role: 'admin', models: ['sim-chat'] });
    const by = as(narrow.key);
    const inherited = await create({}, by);
    expect(inherited.models).toEqual(['sim-chat']);
    const wider = await by.post('/v1/keys', { models: ['sim-image'] });
    expect(wider.status).toBe(400);
    expect(wider.body.error.code).toBe('exceeds_allowlist');
    const whole = await by.post('/v1/keys', { models: null });
    expect(whole.body.error.code).toBe('exceeds_allowlist');
  });

  it('answers 404 for a key of another account, and leaves it alone', async () => {
    const theirs = await create({}, as(BETA_KEY));
    for (const res of [
      await alpha.patch(`/v1/keys/${theirs.id}`, { name: 'mine' }),
      await alpha.post(`/v1/keys/${theirs.id}/rotate`, { grace_seconds: 0 }),
      await alpha.delete(`/v1/keys/${theirs.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('key_not_found');
    }
    expect((await chat(theirs.key)).status).toBe(200);
    expect((await alpha.get('/v1/keys')).body.data.map((x: { id: string }) => x.id)).not.toContain(theirs.id);
  });

  it('rotates: the new secret is answered once, the old one works until the grace time ends, then stops', async () => {
    const k = await create({ name: 'rotating' });
    const rotated = await alpha.post(`/v1/keys/${k.id}/rotate`, { grace_seconds: 60 });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: k.id, name: 'rotating', previous_secret_until: new Date(T0 + 60_000).toISOString() });
    const fresh = rotated.body.key as string;
    expect(fresh).not.toBe(k.key);
    expect(JSON.stringify((await alpha.get('/v1/keys')).body)).not.toContain(fresh);

    now = T0 + 59_000;
    expect((await chat(k.key)).status).toBe(200);
    expect((await chat(fresh)).status).toBe(200);
    now = T0 + 60_000;
    const stale = await chat(k.key);
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('invalid_api_key');
    expect((await chat(fresh)).status).toBe(200);

    // a grace of 0 stops the old secret at once
    const again = await alpha.post(`/v1/keys/${k.id}/rotate`, { grace_seconds: 0 });
    expect((await chat(fresh)).status).toBe(401);
    expect((await chat(again.body.key)).status).toBe(200);
  });

  it('refuses a rotation without a valid grace_seconds', async () => {
    const k = await create();
    for (const body of [{}, { grace_seconds: -1 }, { grace_seconds: 1.5 }, { grace_seconds: '60' }]) {
      const res = await alpha.post(`/v1/keys/${k.id}/rotate`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_grace_seconds');
    }
    expect((await chat(k.key)).status).toBe(200);
  });

  it('GET /v1/me tells any key its own role, account and group (never the secret), and needs a key', async () => {
    expect((await alpha.get('/v1/me')).body).toMatchObject({ object: 'api_key.self', account: 'alpha', group: 'default', role: 'admin' });
    const member = await create({ name: 'member', models: ['sim-chat'] });
    const me = await as(member.key).get('/v1/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      object: 'api_key.self',
      key_id: member.id,
      account: 'alpha',
      group: 'default',
      role: 'member',
      models: ['sim-chat'],
      tasks: 'account',
    });
    const none = await request(gw.app).get('/v1/me');
    expect(none.status).toBe(401);
    expect(none.body.error).toBeDefined();
  });

  it('is documented in /openapi.json with the OpenAI error shape', async () => {
    const doc = (await request(gw.app).get('/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/keys', 'get'],
      ['/v1/keys', 'post'],
      ['/v1/keys/{id}', 'patch'],
      ['/v1/keys/{id}/rotate', 'post'],
      ['/v1/keys/{id}', 'delete'],
      ['/v1/audit', 'get'],
      ['/v1/me', 'get'],
    ] as const)
      expect(doc.paths[path]?.[method]).toBeDefined();
  });
});
