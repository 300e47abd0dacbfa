import request from 'supertest';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway, chatAs } from './support/test-gateway';

/** GET /admin/usage across accounts: filters, grouping, credits and refunds per group, CSV; /v1/usage's own view. */
const ADMIN = 'sk-admin-usage-0001';

const priced = () =>
  withPricing(testConfigFile(), {
    'sim-chat': { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 1_000_000 },
    'sim-image': { perImage: 5 },
  });

describe('GET /admin/usage', () => {
  let gw: TestGateway;
  let alphaKeyId: string;
  const today = new Date().toISOString().slice(0, 10);
  const admin = (path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${ADMIN}`);
  const chat = (key: string) => chatAs(gw.app, key, 'one two');

  beforeAll(async () => {
    gw = await startTestGateway({ listen: false, config: priced(), env: { adminKey: ADMIN } });
    for (const key of [ALPHA_KEY, ALPHA_KEY, BETA_KEY]) expect((await chat(key)).status).toBe(200);
    const image = await request(gw.app)
      .post('/v1/images/generations')
      .set('Authorization', `Bearer ${BETA_KEY}`)
      .send({ model: 'sim-image', prompt: 'a cat' });
    expect(image.status).toBe(200);
    alphaKeyId = (await admin('/admin/keys?account=alpha')).body.data[0].id;
    // a refund as the task worker writes it (status refunded, negative credits)
    gw.usage.record({
      requestId: 'refund_t1',
      accountId: 'beta',
      keyId: null,
      model: 'sim-image',
      format: 'openai-videos',
      status: 'refunded',
      httpStatus: 200,
      credits: -3,
    });
    await gw.usage.flush();
  });
  afterAll(async () => gw.stop());

  type Group = { group: string; requests: number; input_tokens: number; output_tokens: number; credits: number; refunds: number };
  const byGroup = (data: Group[]): Record<string, Group> => Object.fromEntries(data.map((g) => [g.group, g]));

  it('needs the admin key', async () => {
    expect((await request(gw.app).get('/admin/usage').set('Authorization', `Bearer ${ALPHA_KEY}`)).status).toBe(401);
  });

  it('groups every account by account, with requests, tokens, credits and refunds', async () => {
    const res = await admin('/admin/usage?group_by=account');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', group_by: 'account', has_more: false });
    const g = byGroup(res.body.data);
    expect(g.alpha).toMatchObject({ requests: 2, refunds: 0 });
    expect(g.alpha!.input_tokens).toBeGreaterThan(0);
    expect(g.alpha!.credits).toBe(g.alpha!.input_tokens + g.alpha!.output_tokens);
    // the refund row is bookkeeping, not a request: one chat and one image
    expect(g.beta).toMatchObject({ requests: 2, refunds: 3 });
    // beta: one chat (a credit per token) and one image (5 credits)
    const betaChat = byGroup((await admin('/admin/usage?account=beta&group_by=model&model=sim-chat')).body.data)['sim-chat'];
    expect(g.beta!.credits).toBe(5 + betaChat!.input_tokens + betaChat!.output_tokens);
  });

  it('filters by account, key, model, provider, status and time, and groups by model, key or day', async () => {
    const models = byGroup((await admin('/admin/usage?account=beta&group_by=model&status=ok')).body.data);
    expect(Object.keys(models).sort()).toEqual(['sim-chat', 'sim-image']);
    expect(models['sim-image']).toMatchObject({ requests: 1, credits: 5 });
    const keys = (await admin(`/admin/usage?key=${alphaKeyId}&group_by=key`)).body.data;
    expect(keys).toEqual([expect.objectContaining({ group: alphaKeyId, requests: 2 })]);
    const days = (await admin('/admin/usage?provider=sim&model=sim-chat')).body;
    expect(days.group_by).toBe('day');
    expect(days.data).toEqual([expect.objectContaining({ group: today, requests: 3 })]);
    expect((await admin('/admin/usage?to=2000-01-01T00:00:00Z')).body.data).toEqual([]);
    expect((await admin(`/admin/usage?from=${Math.floor(Date.now() / 1000) - 3600}&account=alpha`)).body.data[0].requests).toBe(2);
  });

  it('is bounded: limit groups, has_more when there were more', async () => {
    const res = await admin('/admin/usage?group_by=account&limit=1');
    expect(res.body.data).toHaveLength(1);
    expect(res.body.has_more).toBe(true);
  });

  it('answers CSV with a header row for format=csv or Accept: text/csv', async () => {
    const csv = await admin('/admin/usage?group_by=account&format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('account,requests,input_tokens,output_tokens,credits,refunds,video_seconds_requested,video_seconds_delivered');
    expect(lines.find((l) => l.startsWith('beta,'))).toMatch(/^beta,2,\d+,\d+,[\d.]+,3,0,0$/);
    const accepted = await admin('/admin/usage?group_by=model').set('Accept', 'text/csv');
    expect(accepted.text.split('\r\n')[0]).toBe(
      'model,requests,input_tokens,output_tokens,credits,refunds,video_seconds_requested,video_seconds_delivered',
    );
  });

  it.each([
    ['group_by=provider', 'group_by'],
    ['format=xml', 'format'],
    ['from=yesterday', 'from'],
    ['limit=0', 'limit'],
  ])('refuses %s with a 400 naming the parameter', async (query, param) => {
    const res = await admin(`/admin/usage?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe(param);
  });

  it('an account member sees only its own through /v1/usage, with key, provider and group_by too', async () => {
    const res = await request(gw.app)
      .get(`/v1/usage?key_id=${alphaKeyId}&provider=sim&group_by=model`)
      .set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.groups).toEqual([expect.objectContaining({ group: 'sim-chat', requests: 2 })]);
    const other = await request(gw.app).get('/v1/usage?group_by=account').set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(other.body.groups).toEqual([expect.objectContaining({ group: 'alpha', requests: 2 })]);
  });

  it('GET /admin/usage/latency: requests, errors, error rate and p50/p95 per model and per provider; bad group_by is a 400', async () => {
    const res = await admin('/admin/usage/latency?group_by=model');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', group_by: 'model', has_more: false });
    const chat = res.body.data.find((g: { group: string }) => g.group === 'sim-chat');
    expect(chat).toMatchObject({ requests: 3, errors: 0, error_rate: 0 });
    expect(chat.latency_p50_ms).toEqual(expect.any(Number));
    expect(chat.latency_p95_ms).toBeGreaterThanOrEqual(chat.latency_p50_ms);
    // the refund row is bookkeeping: sim-image counts its one request only
    expect(res.body.data.find((g: { group: string }) => g.group === 'sim-image')).toMatchObject({ requests: 1 });
    const byProvider = await admin('/admin/usage/latency?group_by=provider&account=alpha');
    expect(byProvider.body.data).toEqual([expect.objectContaining({ requests: 2, errors: 0 })]);
    const bad = await admin('/admin/usage/latency?group_by=day');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_group_by');
    expect((await request(gw.app).get('/admin/usage/latency').set('Authorization', `Bearer ${ALPHA_KEY}`)).status).toBe(401);
  });
});
