import request from 'supertest';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
const requestIds: string[] = [];

beforeAll(async () => {
  gw = await startTestGateway({ listen: false });
  for (const [key, content] of [
    [ALPHA_KEY, 'one two'],
    [ALPHA_KEY, 'three'],
    [ALPHA_KEY, 'four five six'],
    [BETA_KEY, 'beta only'],
  ]) {
    const res = await request(gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'sim-chat', messages: [{ role: 'user', content }] });
    expect(res.status).toBe(200);
    requestIds.push(res.headers['x-request-id']!);
  }
  await request(gw.app)
    .post('/v1/chat/completions')
    .set('Authorization', `Bearer ${ALPHA_KEY}`)
    .send({ model: 'sim-chat', messages: [{ role: 'user', content: '[sim:fail]' }] });
  await gw.usage.flush();
});
afterAll(async () => {
  await gw.stop();
});

const usage = (query = '', key = ALPHA_KEY) => request(gw.app).get(`/v1/usage${query}`).set('Authorization', `Bearer ${key}`);

describe('GET /v1/usage', () => {
  it("lists only the caller's own rows, newest first, with token counts", async () => {
    const res = await usage();
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.data).toHaveLength(4);
    expect(res.body.data.map((r: { request_id: string }) => r.request_id)).not.toContain(requestIds[3]);
    const ok = res.body.data.find((r: { request_id: string }) => r.request_id === requestIds[0]);
    expect(ok).toMatchObject({ model: 'sim-chat', format: 'openai-chat', status: 'ok', http_status: 200, input_tokens: 2 });
    expect(ok.output_tokens).toBeGreaterThan(0);
    expect(Number(res.body.data[0].id)).toBeGreaterThan(Number(res.body.data[1].id));
    const beta = await usage('', BETA_KEY);
    expect(beta.body.data.map((r: { request_id: string }) => r.request_id)).toEqual([requestIds[3]]);
  });

  it('filters by request id and status', async () => {
    const one = await usage(`?request_id=${requestIds[1]}`);
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0].request_id).toBe(requestIds[1]);
    const failed = await usage('?status=error');
    expect(failed.body.data).toHaveLength(1);
    expect(failed.body.data[0]).toMatchObject({ error_code: 'simulated_failure', http_status: 502 });
    expect((await usage('?model=sim-image')).body.data).toHaveLength(0);
    expect((await usage(`?request_id=${requestIds[3]}`)).body.data).toHaveLength(0);
  });

  it('filters by time range', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await usage(`?start_time=${future}`)).body.data).toHaveLength(0);
    expect((await usage(`?end_time=${future}`)).body.data).toHaveLength(4);
    expect((await usage('?start_time=2000-01-01T00:00:00Z')).body.data).toHaveLength(4);
  });

  it('pages with limit and after', async () => {
    const p1 = await usage('?limit=3');
    expect(p1.body).toMatchObject({ has_more: true });
    expect(p1.body.data).toHaveLength(3);
    const p2 = await usage(`?limit=3&after=${p1.body.last_id}`);
    expect(p2.body.has_more).toBe(false);
    expect(p2.body.data).toHaveLength(1);
    const ids = [...p1.body.data, ...p2.body.data].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(4);
  });

  it('adds daily totals per model', async () => {
    const res = await usage();
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.daily_totals).toEqual([expect.objectContaining({ date: today, model: 'sim-chat', requests: 4 })]);
    expect(res.body.daily_totals[0].input_tokens).toBe(2 + 1 + 3);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=abc', 'limit'],
    ['?start_time=yesterday', 'start_time'],
    ['?after=x1', 'after'],
    ['?model[a]=b', 'model'],
  ])('%s → 400 naming %s', async (q, param) => {
    const res = await usage(q);
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe(param);
  });

  it('needs a key', async () => {
    expect((await request(gw.app).get('/v1/usage')).status).toBe(401);
  });
});
