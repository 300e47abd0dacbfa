import request from 'supertest';
import { ALPHA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway, chatAs } from './support/test-gateway';

/**
 * Usage rows a person can read: grouped by key, the key's name and account; a video task's settlement row is not an
 * extra request; `export=csv` on /v1/usage and /admin/usage alike; a parameter or value the route does not know is a
 * 400 in the route's own error shape, never a silent empty list.
 */
const ADMIN = 'sk-admin-usage-readable-01';

describe('usage a person can read', () => {
  let gw: TestGateway;
  let named: { id: string; key: string };
  const admin = (path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${ADMIN}`);
  const v1 = (path: string, key = ALPHA_KEY) => request(gw.app).get(path).set('Authorization', `Bearer ${key}`);
  const chat = (key: string) => chatAs(gw.app, key, 'one two');

  beforeAll(async () => {
    const config = withPricing(testConfigFile(), { 'sim-chat': { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 1_000_000 } });
    gw = await startTestGateway({ listen: false, config, env: { adminKey: ADMIN } });
    const created = await request(gw.app)
      .post('/admin/keys')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ account: 'alpha', group: 'default', name: 'billing-bot' });
    expect(created.status).toBe(201);
    named = { id: created.body.id, key: created.body.key };
    expect((await chat(named.key)).status).toBe(200);
    expect((await chat(ALPHA_KEY)).status).toBe(200);
    // a video task's creation row and, once it succeeded, its settlement row (as the worker writes them)
    const video = { requested: { seconds: 5, resolution: '720p' } };
    gw.usage.record({ ...taskRow('task_1'), requestId: 'req_task_1', status: 'queued', credits: 10, video });
    gw.usage.record({
      ...taskRow('task_1'),
      requestId: 'settle_task_1',
      status: 'succeeded',
      credits: -2,
      video: { ...video, delivered: { seconds: 4, resolution: '720p' } },
    });
    await gw.usage.flush();
  });
  afterAll(async () => gw.stop());

  const taskRow = (taskId: string) => ({
    accountId: 'alpha',
    keyId: named.id,
    model: 'sim-video-2.0',
    format: 'openai-videos',
    httpStatus: 200,
    taskId,
  });

  it('grouped by key, each group names the key and its account (admin and /v1/usage)', async () => {
    const res = await admin('/admin/usage?group_by=key');
    expect(res.status).toBe(200);
    const mine = res.body.data.find((g: { group: string }) => g.group === named.id);
    expect(mine).toMatchObject({ key_name: 'billing-bot', account: 'alpha' });
    const own = await v1('/v1/usage?group_by=key');
    expect(own.body.groups).toContainEqual(expect.objectContaining({ group: named.id, key_name: 'billing-bot', account: 'alpha' }));
    // a key from the config file has no name, but its account is still shown
    const configKey = own.body.groups.find((g: { group: string }) => g.group !== named.id);
    expect(configKey).toMatchObject({ key_name: null, account: 'alpha' });
    const csv = await admin('/admin/usage?group_by=key&export=csv');
    expect(csv.text.split('\r\n')[0]).toBe(
      'key,key_name,account,requests,input_tokens,output_tokens,credits,refunds,video_seconds_requested,video_seconds_delivered',
    );
    expect(csv.text).toContain(`${named.id},billing-bot,alpha,`);
  });

  it("counts a video task once: its settlement row is the task's bookkeeping, not a request", async () => {
    const byModel = (await admin('/admin/usage?group_by=model&model=sim-video-2.0')).body.data;
    expect(byModel).toEqual([expect.objectContaining({ group: 'sim-video-2.0', requests: 1, credits: 10, refunds: 2 })]);
    expect(byModel[0]).toMatchObject({ video_seconds_requested: 5, video_seconds_delivered: 4 });
    const daily = (await v1('/v1/usage?model=sim-video-2.0')).body.daily_totals;
    expect(daily).toEqual([expect.objectContaining({ model: 'sim-video-2.0', requests: 1 })]);
  });

  it('export=csv answers CSV on /v1/usage (rows, or groups) and on /admin/usage', async () => {
    const rows = await v1('/v1/usage?export=csv&model=sim-chat');
    expect(rows.status).toBe(200);
    expect(rows.headers['content-type']).toMatch(/^text\/csv/);
    const lines = rows.text.trim().split('\r\n');
    expect(lines[0]!.split(',')).toEqual(expect.arrayContaining(['request_id', 'key_id', 'model', 'status', 'credits']));
    expect(lines).toHaveLength(3); // the header and the two chats
    const groups = await v1('/v1/usage?export=csv&group_by=model');
    expect(groups.text.split('\r\n')[0]).toMatch(/^model,requests,/);
    const adminCsv = await admin('/admin/usage?export=csv&group_by=account');
    expect(adminCsv.headers['content-type']).toMatch(/^text\/csv/);
    expect(adminCsv.text).toMatch(/\r\nalpha,3,/);
    const requestsCsv = await admin('/admin/usage/requests?export=csv&account=alpha');
    expect(requestsCsv.headers['content-type']).toMatch(/^text\/csv/);
  });

  it.each([
    ['group_by=banana', 'group_by'],
    ['export=xml', 'export'],
    ['status=banana', 'status'],
    ['groupby=key', 'groupby'],
  ])('/v1/usage refuses %s with a 400 in the OpenAI error shape', async (query, param) => {
    const res = await v1(`/v1/usage?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it.each([
    ['group_by=banana', 'group_by'],
    ['export=xml', 'export'],
    ['status=banana', 'status'],
    ['groupby=key', 'groupby'],
  ])('/admin/usage refuses %s with a 400 naming the parameter', async (query, param) => {
    const res = await admin(`/admin/usage?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe(param);
  });
});
