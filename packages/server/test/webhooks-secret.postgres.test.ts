import { randomBytes } from 'node:crypto';
import knex from 'knex';
import request from 'supertest';
import { describeWithService } from '@gateway/testkit';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

/**
 * On a shared PostgreSQL without GATEWAY_SECRET no instance could read another's sealed webhook secret, so none is
 * stored: endpoint creation and a task with a callback_url are refused with a clear 400, and nothing is written.
 */
describeWithService('TEST_DATABASE_URL', 'webhook secrets on PostgreSQL without GATEWAY_SECRET', (pgUrl) => {
  const schema = `wh_${randomBytes(6).toString('hex')}`;
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ listen: false, env: { databaseUrl: pgUrl, databaseSchema: schema, inMemoryDatabase: false } });
  }, 60_000);
  afterAll(async () => {
    await gw?.stop();
    const admin = knex({ client: 'pg', connection: pgUrl });
    await admin.raw(`drop schema if exists "${schema}" cascade`);
    await admin.destroy();
  });

  it('refuses to create an endpoint', async () => {
    const res = await request(gw.app)
      .post('/v1/webhook_endpoints')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ url: 'https://hooks.example.com/x' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'webhook_secret_unavailable', message: expect.stringContaining('GATEWAY_SECRET') });
    expect(await gw.db.knex('webhook_endpoints')).toHaveLength(0);
  });

  it('refuses a task with a callback_url in the task format, creating no task', async () => {
    const res = await request(gw.app)
      .post('/v1/contents/generations/tasks')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-video-2.0', content: [{ type: 'text', text: 'x' }], callback_url: 'https://hooks.example.com/cb' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { code: 'webhook_secret_unavailable', message: expect.any(String) },
    });
    expect(await gw.db.knex('video_tasks')).toHaveLength(0);
  });
});
