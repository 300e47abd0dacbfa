import { eventually } from '@gateway/testkit';
import request from 'supertest';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

describe('/metrics', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ listen: false, env: { adminKey: 'sk-admin-secret' } });
  });
  afterAll(async () => {
    await gw.stop();
  });

  it('needs the admin key when one is set', async () => {
    expect((await request(gw.app).get('/metrics')).status).toBe(401);
    expect((await request(gw.app).get('/metrics').set('Authorization', `Bearer ${ALPHA_KEY}`)).status).toBe(401);
  });

  it('counts requests by format, model and status, and reports tasks and streams', async () => {
    await request(gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] });
    await request(gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const res = await request(gw.app).get('/metrics').set('Authorization', 'Bearer sk-admin-secret');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toMatch(/gateway_requests_total\{format="openai-chat",model="sim-chat",status="200",client_fault="false"\} 2/);
    expect(res.text).toMatch(/gateway_time_to_first_token_seconds_count\{format="openai-chat"\} 1/);
    expect(res.text).toMatch(/gateway_tokens_total\{model="sim-chat",direction="input"\} 2/);
    expect(res.text).toContain('gateway_active_streams 0');
    expect(res.text).toContain('gateway_task_queue_oldest_seconds');
    expect(res.text).toContain('process_resident_memory_bytes');
    expect(res.text).toMatch(/gateway_upstream_duration_seconds_count\{provider="sim"\} 2/);
    expect(res.text).toMatch(/gateway_circuit_state\{provider="sim",upstream_model="sim-chat"\} 0/);
    expect(res.text).toMatch(/gateway_worker_poll_lag_seconds 0/);
  });

  it('reports tasks by status, queue age and poll lag from the store', async () => {
    const created = await request(gw.app)
      .post('/v1/contents/generations/tasks')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-video-2.0', content: [{ type: 'text', text: 'a cat' }] });
    expect(created.status).toBe(200);
    // no worker runs here: the task waits, overdue
    await gw.db
      .knex('video_tasks')
      .where({ id: created.body.id })
      .update({ next_poll_at: new Date(Date.now() - 60_000), created_at: new Date(Date.now() - 90_000) });
    // task counts are cached for a second: read until the new count shows
    let res!: request.Response;
    await eventually(async () => {
      res = await request(gw.app).get('/metrics').set('Authorization', 'Bearer sk-admin-secret');
      expect(res.text).toMatch(/gateway_tasks\{status="queued"\} 1/);
    });
    const age = Number(/^gateway_task_queue_oldest_seconds (\S+)$/m.exec(res.text)![1]);
    expect(age).toBeGreaterThanOrEqual(89);
    const lag = Number(/^gateway_worker_poll_lag_seconds (\S+)$/m.exec(res.text)![1]);
    expect(lag).toBeGreaterThanOrEqual(59);
  });
});
