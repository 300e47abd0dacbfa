import { eventually } from '@gateway/testkit';
import request from 'supertest';

import { ALPHA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

const ADMIN = 'sk-admin-quota-01';
const priced = () => {
  const base = testConfigFile();
  return testConfigFile({
    providers: [{ id: 'sim', type: 'simulator', options: { queuedMs: 50, videoLatencyMs: 100 } }],
    models: base.models.map((m) =>
      m.id === 'sim-chat'
        ? { ...m, pricing: { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 1_000_000 } }
        : m.id === 'sim-image'
          ? { ...m, pricing: { perImage: 5 } }
          : m.id === 'sim-video-2.0'
            ? { ...m, pricing: { perVideoSecond: { '480p': 10, '720p': 10, '1080p': 10, '4k': 10 } } }
            : m,
    ),
  });
};

describe('credit quotas', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ listen: false, config: priced(), env: { adminKey: ADMIN } });
    await gw.startBackground();
  });
  afterAll(async () => {
    await gw.stop();
  });
  const admin = (method: 'get' | 'put', path: string) => request(gw.app)[method](path).set('Authorization', `Bearer ${ADMIN}`);
  const chat = (content = 'one two three') =>
    request(gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-chat', messages: [{ role: 'user', content }] });
  const used = async () => (await admin('get', '/admin/accounts/alpha/quota')).body.credits_used as number;

  it('settles text by tokens, records the cost in the usage log, and refuses once the quota is spent', async () => {
    expect((await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: 40 })).body).toEqual({
      account: 'alpha',
      credit_limit: 40,
      credits_used: 0,
      period: null,
    });
    const first = await chat();
    expect(first.status).toBe(200);
    const cost = first.body.usage.total_tokens;
    expect(await used()).toBe(cost);
    await gw.usage.flush();
    const rows = await request(gw.app)
      .get(`/v1/usage?request_id=${first.headers['x-request-id']}`)
      .set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(rows.body.data[0].credits).toBe(cost);
    let last = first;
    for (let i = 0; i < 10 && last.status === 200; i++) last = await chat();
    expect(last.status).toBe(429);
    expect(last.body.error).toMatchObject({ code: 'quota_exhausted', type: 'insufficient_quota' });
    const anthropic = await request(gw.app)
      .post('/v1/messages')
      .set('x-api-key', ALPHA_KEY)
      .set('anthropic-version', '2023-06-01')
      .send({ model: 'sim-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(anthropic.status).toBe(429);
    expect(anthropic.body.error.code).toBe('quota_exhausted');
  });

  it('refuses an image request that costs more than what is left, before any work', async () => {
    await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: (await used()) + 7 });
    const two = await request(gw.app)
      .post('/v1/images/generations')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-image', prompt: 'red', n: 2, size: '1024x1024', response_format: 'b64_json' });
    expect(two.status).toBe(429);
    const before = await used();
    const one = await request(gw.app)
      .post('/v1/images/generations')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-image', prompt: 'red', n: 1, size: '1024x1024', response_format: 'b64_json' });
    expect(one.status).toBe(200);
    expect(await used()).toBe(before + 5);
  });

  it('charges a video task when accepted and refunds it once when it fails', async () => {
    await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: null });
    const before = await used();
    const created = await request(gw.app)
      .post('/v1/contents/generations/tasks')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-video-2.0', content: [{ type: 'text', text: 'a cat [sim:fail]' }], duration: 5, resolution: '720p' });
    expect(created.status).toBe(200);
    expect(await used()).toBe(before + 50);
    const id = created.body.id;
    await eventually(async () => {
      const t = await request(gw.app).get(`/v1/contents/generations/tasks/${id}`).set('Authorization', `Bearer ${ALPHA_KEY}`);
      expect(t.body.status).toBe('failed');
    }, 15000);
    await eventually(async () => expect(await used()).toBe(before), 15000);
    const ledger = await gw.db.knex('credit_ledger').where({ task_id: id });
    expect(ledger).toHaveLength(2);
  });

  it('shows the refund in GET /v1/usage beside the charge, for a failed or cancelled task', async () => {
    await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: null });
    const created = await request(gw.app)
      .post('/v1/contents/generations/tasks')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-video-2.0', content: [{ type: 'text', text: 'a dog [sim:fail]' }], duration: 5, resolution: '720p' });
    expect(created.status).toBe(200);
    const id = created.body.id;
    await eventually(async () => {
      const rows = await request(gw.app).get(`/v1/usage?task_id=${id}`).set('Authorization', `Bearer ${ALPHA_KEY}`);
      expect(rows.body.data.map((r: { status: string; credits: number }) => [r.status, r.credits])).toEqual([
        ['refunded', -50],
        ['queued', 50],
      ]);
    }, 15000);
  });

  it('refuses a video task the quota cannot cover, creating nothing', async () => {
    await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: (await used()) + 49 });
    const [{ n: before }] = (await gw.db.knex('video_tasks').count({ n: '*' })) as [{ n: string }];
    const res = await request(gw.app)
      .post('/v1/contents/generations/tasks')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-video-2.0', content: [{ type: 'text', text: 'a cat' }], duration: 5, resolution: '720p' });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'quota_exhausted' });
    const [{ n: after }] = (await gw.db.knex('video_tasks').count({ n: '*' })) as [{ n: string }];
    expect(Number(after)).toBe(Number(before));
  });

  it('refuses a bad limit', async () => {
    expect((await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: -1 })).status).toBe(400);
    expect((await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: 'lots' })).status).toBe(400);
    expect((await admin('get', '/admin/accounts/ghost/quota')).status).toBe(404);
  });
});
