import request from 'supertest';
import { startTestGateway, type TestGateway } from './support/test-gateway';

/** The CLI's local token opens the admin API (loopback callers; supertest is one) and nothing else changes. */
describe('local admin token', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ listen: false });
  }, 60_000);
  afterAll(async () => gw.stop());

  it('is accepted from loopback; without GATEWAY_ADMIN_KEY any other key still meets admin_disabled', async () => {
    const ok = await request(gw.app).get('/admin/accounts').set('Authorization', `Bearer ${gw.localAdminToken}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((a: { id: string }) => a.id)).toContain('alpha');
    const other = await request(gw.app).get('/admin/accounts').set('Authorization', `Bearer ${gw.localAdminToken}x`);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('admin_disabled');
  });

  it('is new for every gateway start', async () => {
    const second = await startTestGateway({ listen: false });
    try {
      expect(second.localAdminToken).not.toBe(gw.localAdminToken);
      expect(gw.localAdminToken.length).toBeGreaterThanOrEqual(43);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
