import { rmSync } from 'node:fs';
import request from 'supertest';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

const ADMIN = 'admin-key-for-config-keys-restart';
const asAdmin = (gw: TestGateway, path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${ADMIN}`);
const keysOf = async (gw: TestGateway, account: string) => (await asAdmin(gw, `/admin/keys?account=${account}`)).body.data;
// what start-up made from the file's keys (an import of the catalogue has records of its own)
const startUpRecords = async (gw: TestGateway) =>
  (await asAdmin(gw, '/admin/audit?actor=config_file:(test)')).body.data.filter((r: any) => ['account', 'key'].includes(r.target.type));
const calls = (gw: TestGateway, key: string) => request(gw.app).get('/v1/models').set('Authorization', `Bearer ${key}`);

// Its own file: two gateways on a PGlite data dir take a while to start.
describe('config-file keys across a restart', () => {
  it('a config-file key rotated away, or rotated and revoked, stays dead when the gateway restarts with the same file; each account and key bootstrap made has its record', async () => {
    const env = { inMemoryDatabase: false, adminKey: ADMIN };
    const first = await startTestGateway({ listen: false, env });
    const dataDir = first.dataDir;
    let alphaNext = '';
    try {
      const made = await startUpRecords(first);
      expect(made.map((r: any) => `${r.action} ${r.target.type}`).sort()).toEqual([
        'account.create account',
        'account.create account',
        'key.create key',
        'key.create key',
      ]);
      const alphaKey = made.find((r: any) => r.action === 'key.create' && r.account === 'alpha');
      expect(alphaKey.after).toMatchObject({ account: 'alpha', role: 'admin', prefix: ALPHA_KEY.slice(0, 7) });
      expect(JSON.stringify(made)).not.toContain(ALPHA_KEY);

      const [alpha] = await keysOf(first, 'alpha');
      const rotated = await request(first.app)
        .post(`/v1/keys/${alpha.id}/rotate`)
        .set('Authorization', `Bearer ${ALPHA_KEY}`)
        .send({ grace_seconds: 0 });
      expect(rotated.status).toBe(200);
      alphaNext = rotated.body.key;

      const [beta] = await keysOf(first, 'beta');
      const betaRotated = await request(first.app)
        .post(`/v1/keys/${beta.id}/rotate`)
        .set('Authorization', `Bearer ${BETA_KEY}`)
        .send({ grace_seconds: 0 });
      expect(betaRotated.status).toBe(200);
      expect((await request(first.app).delete(`/admin/keys/${beta.id}`).set('Authorization', `Bearer ${ADMIN}`)).status).toBe(200);
      expect((await calls(first, ALPHA_KEY)).status).toBe(401);
    } finally {
      await first.close();
    }

    const second = await startTestGateway({ listen: false, env: { ...env, dataDir } });
    try {
      expect((await calls(second, ALPHA_KEY)).status).toBe(401);
      expect((await calls(second, BETA_KEY)).status).toBe(401);
      expect((await calls(second, alphaNext)).status).toBe(200);
      expect(await keysOf(second, 'alpha')).toHaveLength(1);
      const betaKeys = await keysOf(second, 'beta');
      expect(betaKeys).toHaveLength(1);
      expect(betaKeys[0].revoked_at).not.toBeNull();
      // nothing was made, so nothing was recorded
      expect(await startUpRecords(second)).toHaveLength(4);
    } finally {
      await second.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000); // two gateways opening PGlite on disk in turn
});
