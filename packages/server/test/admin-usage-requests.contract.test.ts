import request from 'supertest';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway, chatAs } from './support/test-gateway';

/** GET /admin/usage/requests: every account's request log, filtered and paged, JSON or CSV; admin only. */
const ADMIN = 'sk-admin-usage-rows-0001';

describe('GET /admin/usage/requests', () => {
  let gw: TestGateway;
  const admin = (path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${ADMIN}`);
  const chat = (key: string) => chatAs(gw.app, key, 'one two');

  beforeAll(async () => {
    gw = await startTestGateway({ listen: false, env: { adminKey: ADMIN } });
    for (const key of [ALPHA_KEY, BETA_KEY, BETA_KEY]) expect((await chat(key)).status).toBe(200);
    // a failed call as the request observer logs it
    gw.usage.record({
      requestId: 'req_failed_1',
      accountId: 'alpha',
      keyId: null,
      model: 'sim-chat',
      format: 'openai-chat',
      status: 'error',
      httpStatus: 502,
      errorCode: 'upstream_unavailable',
    });
    await gw.usage.flush();
  });
  afterAll(async () => gw.stop());

  it('needs the admin key, not an API key', async () => {
    const res = await request(gw.app).get('/admin/usage/requests').set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_admin_key');
  });

  it('lists every account’s rows newest first, each naming its account', async () => {
    const res = await admin('/admin/usage/requests');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false });
    const rows = res.body.data as Array<{ id: string; account: string; model: string; status: string; latency_ms: number | null }>;
    expect(rows.map((r) => r.account).sort()).toEqual(['alpha', 'alpha', 'beta', 'beta']);
    expect(rows.map((r) => Number(r.id))).toEqual(rows.map((r) => Number(r.id)).sort((a, b) => b - a));
    expect(res.body.first_id).toBe(rows[0]!.id);
  });

  it('filters by account, status and model', async () => {
    const beta = (await admin('/admin/usage/requests?account=beta')).body.data;
    expect(beta).toHaveLength(2);
    expect(beta.every((r: { account: string }) => r.account === 'beta')).toBe(true);
    const failed = (await admin('/admin/usage/requests?status=error')).body.data;
    expect(failed.map((r: { account: string }) => r.account)).toEqual(['alpha']);
    expect((await admin('/admin/usage/requests?status=ok&account=alpha')).body.data).toHaveLength(1);
    expect((await admin('/admin/usage/requests?model=sim-image')).body.data).toHaveLength(0);
  });

  it('filters by key id', async () => {
    const alphaKeyId = (await admin('/admin/keys?account=alpha')).body.data[0].id;
    const rows = (await admin(`/admin/usage/requests?key=${alphaKeyId}`)).body.data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key_id: alphaKeyId, account: 'alpha', status: 'ok' });
  });

  it('pages with limit and after', async () => {
    const first = (await admin('/admin/usage/requests?limit=3')).body;
    expect(first.data).toHaveLength(3);
    expect(first.has_more).toBe(true);
    const rest = (await admin(`/admin/usage/requests?limit=3&after=${first.last_id}`)).body;
    expect(rest.data).toHaveLength(1);
    expect(rest.has_more).toBe(false);
  });

  it('answers CSV with a header row', async () => {
    const res = await admin('/admin/usage/requests?format=csv&account=beta');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['x-has-more']).toBe('false');
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,created_at,account,key_id,request_id,model,provider,format,status,http_status,error_code,input_tokens,output_tokens,latency_ms,ttft_ms,credits,task_id',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]!.split(',')[2]).toBe('beta');
    const viaAccept = await request(gw.app).get('/admin/usage/requests').set('Authorization', `Bearer ${ADMIN}`).set('Accept', 'text/csv');
    expect(viaAccept.headers['content-type']).toMatch(/^text\/csv/);
  });

  it('refuses a bad filter in the OpenAI error shape, naming the parameter', async () => {
    for (const [q, code] of [
      ['limit=0', 'invalid_limit'],
      ['after=abc', 'invalid_cursor'],
      ['from=yesterday', 'invalid_time'],
      ['format=xml', 'invalid_format'],
    ]) {
      const res = await admin(`/admin/usage/requests?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(code);
    }
  });
});
