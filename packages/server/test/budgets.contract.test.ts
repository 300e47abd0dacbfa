import request from 'supertest';
import { ALPHA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway, chatAs } from './support/test-gateway';

/**
 * Credit budgets per key and per account with a period, on the real app and an injected clock: refused in the
 * caller's format when spent (429 quota_exhausted / key_budget_exhausted), started again at the UTC boundary, and
 * announced in x-gateway-budget-remaining / x-gateway-budget-reset.
 */
const ADMIN = 'sk-admin-budget-01';
let now = Date.parse('2030-05-31T23:00:00Z');

// one credit per token, five per image: costs are easy to read off the answers
const priced = () =>
  withPricing(testConfigFile(), {
    'sim-chat': { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 1_000_000 },
    'sim-image': { perImage: 5 },
  });

describe('credit budgets with periods', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      listen: false,
      config: priced(),
      env: { adminKey: ADMIN, keyCacheTtlMs: 0, quotaCacheMs: 0 },
      clock: () => new Date(now),
    });
    await request(gw.app).post('/admin/accounts').set('Authorization', `Bearer ${ADMIN}`).send({ id: 'acme' });
  });
  afterAll(async () => gw.stop());

  const admin = (method: 'get' | 'post' | 'put' | 'patch', path: string) =>
    request(gw.app)[method](path).set('Authorization', `Bearer ${ADMIN}`);
  const chat = (key: string) => chatAs(gw.app, key, 'one two three');
  const message = (key: string) =>
    request(gw.app)
      .post('/v1/messages')
      .set({ 'x-api-key': key, 'anthropic-version': '2023-06-01' })
      .send({ model: 'sim-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  const images = (key: string, n: number) =>
    request(gw.app).post('/v1/images/generations').set('Authorization', `Bearer ${key}`).send({ model: 'sim-image', prompt: 'a cat', n });

  it('a daily key budget: remaining in the headers, refused when spent, full again after midnight UTC', async () => {
    now = Date.parse('2030-05-31T23:00:00Z');
    const created = await admin('post', '/admin/keys').send({ account: 'acme', budget: { credit_limit: 30, period: 'daily' } });
    expect(created.status).toBe(201);
    expect(created.body.budget).toEqual({ credit_limit: 30, period: 'daily', credits_used: 0 });
    const key = created.body.key as string;

    const first = await chat(key);
    expect(first.status).toBe(200);
    expect(first.headers['x-gateway-budget-remaining']).toBe('30');
    expect(first.headers['x-gateway-budget-reset']).toBe('2030-06-01T00:00:00.000Z');
    const cost = first.body.usage.total_tokens as number;
    expect((await chat(key)).headers['x-gateway-budget-remaining']).toBe(String(30 - cost));
    while ((await admin('get', `/admin/keys/${created.body.id}`)).body.budget.credits_used < 30) expect((await chat(key)).status).toBe(200);

    const refused = await chat(key);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('key_budget_exhausted');
    expect(refused.body.error.message).toContain("key's credit budget");
    expect(refused.headers['x-gateway-budget-remaining']).toBe('0');
    const inAnthropic = await message(key);
    expect(inAnthropic.status).toBe(429);
    expect(inAnthropic.body).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    // another key of the account is not held by this key's budget
    const other = await admin('post', '/admin/keys').send({ account: 'acme' });
    expect((await chat(other.body.key)).status).toBe(200);

    now = Date.parse('2030-06-01T00:00:00Z');
    const nextDay = await chat(key);
    expect(nextDay.status).toBe(200);
    expect(nextDay.headers['x-gateway-budget-remaining']).toBe('30');
    expect(nextDay.headers['x-gateway-budget-reset']).toBe('2030-06-02T00:00:00.000Z');
  });

  it('a key budget takes image prices in one conditional write: what does not fit is refused, nothing taken', async () => {
    const created = await admin('post', '/admin/keys').send({ account: 'acme', budget: { credit_limit: 12, period: null } });
    const key = created.body.key as string;
    expect((await images(key, 3)).status).toBe(429);
    expect((await admin('get', `/admin/keys/${created.body.id}`)).body.budget.credits_used).toBe(0);
    expect((await images(key, 2)).status).toBe(200);
    const third = await images(key, 1);
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('key_budget_exhausted');
    // a lifetime budget has no reset time
    expect(third.headers['x-gateway-budget-remaining']).toBe('2');
    expect(third.headers['x-gateway-budget-reset']).toBeUndefined();
    // PATCH raises it at once
    expect((await admin('patch', `/admin/keys/${created.body.id}`).send({ budget: { credit_limit: 20 } })).body.budget).toMatchObject({
      credit_limit: 20,
      credits_used: 10,
    });
    expect((await images(key, 1)).status).toBe(200);
  });

  it('a monthly account quota: refused in the Gemini format when spent, open again on the first of the month', async () => {
    now = Date.parse('2030-06-30T12:00:00Z');
    const put = await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: 10, period: 'monthly' });
    expect(put.body).toMatchObject({ account: 'alpha', credit_limit: 10, period: 'monthly' });
    while ((await admin('get', '/admin/accounts/alpha/quota')).body.credits_used < 10) expect((await chat(ALPHA_KEY)).status).toBe(200);
    const gemini = await request(gw.app)
      .post('/v1beta/models/sim-chat:generateContent')
      .set('x-goog-api-key', ALPHA_KEY)
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(gemini.status).toBe(429);
    expect(gemini.body.error.status).toBe('RESOURCE_EXHAUSTED');
    expect(gemini.headers['x-gateway-budget-reset']).toBe('2030-07-01T00:00:00.000Z');
    now = Date.parse('2030-07-01T00:00:00Z');
    const july = await chat(ALPHA_KEY);
    expect(july.status).toBe(200);
    expect(july.headers['x-gateway-budget-remaining']).toBe('10');
  });

  it.each([
    [{ budget: { credit_limit: -1 } }, 'budget.credit_limit'],
    [{ budget: { credit_limit: 5, period: 'weekly' } }, 'budget.period'],
    [{ budget: { period: 'daily' } }, 'budget.credit_limit'],
    [{ budget: 5 }, 'budget'],
  ])('refuses the budget %j with a 400 naming the field, and creates no key', async (body, param) => {
    const before = (await admin('get', '/admin/keys?account=acme')).body.data.length;
    const res = await admin('post', '/admin/keys').send({ account: 'acme', ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe(param);
    expect((await admin('get', '/admin/keys?account=acme')).body.data).toHaveLength(before);
  });

  it('refuses an unknown account quota period', async () => {
    const res = await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: 10, period: 'hourly' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_period', param: 'period' });
  });
});
