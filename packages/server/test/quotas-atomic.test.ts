import request from 'supertest';
import knexFactory from 'knex';
import { randomBytes } from 'node:crypto';
import { describeWithService } from '@gateway/testkit';
import { buildConfig } from '../src/config';
import { ALPHA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/**
 * Admission and reservation are one atomic step: parallel priced creations, on one instance or on two
 * instances sharing one Postgres schema, never commit more than the remaining credits.
 */
const ADMIN = 'sk-admin-atomic-01';
const ALL_RESOLUTIONS = { '480p': 10, '720p': 10, '1080p': 10, '4k': 10 };
const priced = () => {
  const base = testConfigFile();
  return testConfigFile({
    models: base.models.map((m) =>
      m.id === 'sim-image'
        ? { ...m, pricing: { perImage: 5 } }
        : m.id === 'sim-video-2.0'
          ? { ...m, pricing: { perVideoSecond: ALL_RESOLUTIONS } }
          : m,
    ),
  });
};

const video = (gw: TestGateway) =>
  request(gw.app)
    .post('/v1/contents/generations/tasks')
    .set('Authorization', `Bearer ${ALPHA_KEY}`)
    .send({ model: 'sim-video-2.0', content: [{ type: 'text', text: 'a cat' }], duration: 5, resolution: '720p' });
const image = (gw: TestGateway) =>
  request(gw.app)
    .post('/v1/images/generations')
    .set('Authorization', `Bearer ${ALPHA_KEY}`)
    .send({ model: 'sim-image', prompt: 'red', n: 1, size: '1024x1024', response_format: 'b64_json' });

async function books(gw: TestGateway) {
  const q = await gw.db.knex('account_quotas').where({ account_id: 'alpha' }).first();
  const charged = await gw.db.knex('video_tasks').where({ account_id: 'alpha', billing_state: 'charged' }).count({ n: '*' });
  const queuedRows = await gw.db.knex('usage_log').where({ account_id: 'alpha', status: 'queued' }).count({ n: '*' });
  return {
    used: Number(q.credits_used),
    limit: Number(q.credit_limit),
    charged: Number(charged[0]!.n),
    queuedRows: Number(queuedRows[0]!.n),
  };
}

function describeStore(name: string, start: () => Promise<TestGateway[]>, cleanup: () => Promise<void> = async () => undefined) {
  describe(`atomic admission on ${name}`, () => {
    let gws: TestGateway[];
    beforeAll(async () => {
      gws = await start();
    });
    afterAll(async () => {
      for (const gw of gws ?? []) await gw.stop();
      await cleanup();
    });
    const setLimit = (limit: number) =>
      request(gws[0]!.app).put('/admin/accounts/alpha/quota').set('Authorization', `Bearer ${ADMIN}`).send({ credit_limit: limit });

    it('N parallel video creations never commit more than the remaining credits', async () => {
      expect((await setLimit(120)).status).toBe(200);
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => video(gws[i % gws.length]!)));
      const created = answers.filter((a) => a.status === 200).length;
      expect(answers.filter((a) => a.status !== 200).map((a) => a.body.code)).toEqual(Array(8 - created).fill('quota_exhausted'));
      expect(created).toBe(2);
      expect(await books(gws[0]!)).toEqual({ used: 100, limit: 120, charged: 2, queuedRows: 2 });
    });

    it('N parallel image requests never take more than the remaining credits', async () => {
      expect((await setLimit(112)).status).toBe(200);
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => image(gws[i % gws.length]!)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
      expect((await books(gws[0]!)).used).toBe(110);
    });
  });
}

const startOne = (env: Record<string, unknown> = {}) =>
  startTestGateway({ listen: false, config: priced(), env: { adminKey: ADMIN, ...env } });

describeStore('PGlite (one instance)', async () => [await startOne()]);

const schema = `atomic_${randomBytes(5).toString('hex')}`;
describeWithService('TEST_DATABASE_URL', 'PostgreSQL', (url) =>
  describeStore(
    'two instances on one schema',
    async () => {
      const a = await startOne({ inMemoryDatabase: false, databaseUrl: url, databaseSchema: schema });
      return [a, await startOne({ inMemoryDatabase: false, databaseUrl: url, databaseSchema: schema })];
    },
    async () => {
      const db = knexFactory({ client: 'pg', connection: url });
      await db.raw(`drop schema if exists "${schema}" cascade`);
      await db.destroy();
    },
  ),
);

describe('pricing fails closed', () => {
  it('a price table that misses a resolution the model offers stops start-up, naming it', () => {
    const base = testConfigFile();
    const partial = testConfigFile({
      models: base.models.map((m) => (m.id === 'sim-video-2.0' ? { ...m, pricing: { perVideoSecond: { '720p': 10 } } } : m)),
    });
    expect(() => buildConfig('(test)', partial)).toThrow(/sim-video-2\.0 offers 480p, 1080p, 4k but perVideoSecond does not price them/);
    expect(() => buildConfig('(test)', priced())).not.toThrow();
  });
});
