import { eventually, describeWithService } from '@gateway/testkit';
import { randomBytes } from 'node:crypto';
import request from 'supertest';

import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

const ADMIN = 'sk-admin-test-0001';
const chat = (model: string) => ({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('admin API', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ listen: false, env: { adminKey: ADMIN, secret: 'gateway-secret-for-admin-tests' } });
  });
  afterAll(async () => {
    await gw.stop();
  });
  const admin = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    request(gw.app)[method](path).set('Authorization', `Bearer ${ADMIN}`);

  it('needs the admin key; an API key is not enough', async () => {
    expect((await request(gw.app).get('/admin/accounts')).status).toBe(401);
    const res = await request(gw.app).get('/admin/accounts').set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_admin_key');
  });

  it('creates an account and a key shown once; the key works at once and stops working when revoked', async () => {
    expect((await admin('post', '/admin/accounts').send({ id: 'acme', name: 'Acme' })).status).toBe(201);
    const created = await admin('post', '/admin/keys').send({ account: 'acme', group: 'default' });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^sk-/);
    const listed = await admin('get', '/admin/keys?account=acme');
    expect(listed.body.data).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const use = () =>
      request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${created.body.key}`).send(chat('sim-chat'));
    expect((await use()).status).toBe(200);
    expect((await admin('delete', `/admin/keys/${created.body.id}`)).status).toBe(200);
    expect((await use()).status).toBe(401);
    expect((await admin('delete', `/admin/keys/${created.body.id}`)).status).toBe(404);
  });

  it('refuses keys for unknown accounts or groups', async () => {
    expect((await admin('post', '/admin/keys').send({ account: 'ghost' })).status).toBe(404);
    const res = await admin('post', '/admin/keys').send({ account: 'acme', group: 'gold' });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('group');
  });

  it('adds a model and a group change that apply without restart', async () => {
    // not yet known: 404 model_not_found
    expect(
      (await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${BETA_KEY}`).send(chat('sim-chat-2'))).status,
    ).toBe(404);
    const put = await admin('put', '/admin/models/sim-chat-2').send({ kind: 'text', provider: 'sim', displayName: 'Second chat' });
    expect(put.status).toBe(200);
    expect(
      (await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${BETA_KEY}`).send(chat('sim-chat-2'))).status,
    ).toBe(200);
    // alpha's group does not include it until the group changes
    expect(
      (await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`).send(chat('sim-chat-2'))).status,
    ).toBe(503);
    expect((await admin('put', '/admin/groups/default').send({ models: ['sim-chat', 'sim-chat-2'] })).status).toBe(200);
    expect(
      (await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`).send(chat('sim-chat-2'))).status,
    ).toBe(200);
    expect(
      (await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`).send(chat('sim-chat'))).status,
    ).toBe(200);
    const models = await request(gw.app).get('/v1/models').set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(models.body.data.map((m: { id: string }) => m.id).sort()).toEqual(['sim-chat', 'sim-chat-2']);
  });

  it('refuses a change that breaks the config, naming the field, and changes nothing', async () => {
    const bad = await admin('put', '/admin/models/broken').send({ kind: 'text', provider: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_config_change');
    expect(bad.body.error.message).toContain('unknown provider "nope"');
    const inUse = await admin('delete', '/admin/models/sim-chat-2');
    expect(inUse.status).toBe(400);
    expect(inUse.body.error.message).toContain('unknown model "sim-chat-2"');
    expect((await admin('get', '/admin/models')).body.data.map((m: { id: string }) => m.id)).not.toContain('broken');
  });

  it("checks a provider's options against its own schema, naming the field, and changes nothing", async () => {
    const bad = await admin('put', '/admin/providers/sim').send({ type: 'simulator', options: { queuedMs: 'soon' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_config_change');
    expect(bad.body.error.message).toContain('providers.0.options.queuedMs');
    const typo = await admin('put', '/admin/providers/sim').send({ type: 'simulator', options: { queuedMillis: 5 } });
    expect(typo.body.error.message).toContain('providers.0.options.queuedMillis');
    expect(
      (await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${BETA_KEY}`).send(chat('sim-chat'))).status,
    ).toBe(200);
  });

  it('never shows a provider secret', async () => {
    const put = await admin('put', '/admin/providers/oa').send({
      type: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-upstream-secret-123',
    });
    expect(put.status).toBe(200);
    const list = await admin('get', '/admin/providers');
    expect(JSON.stringify(list.body)).not.toContain('sk-upstream-secret-123');
    expect(list.body.data.find((p: { id: string }) => p.id === 'oa').apiKey).toBe('(set)');
    expect(JSON.stringify(put.body)).not.toContain('sk-upstream-secret-123');
  });
});

describe('admin changes and the config file across a restart', () => {
  it("keeps admin models after a restart with the same file, in the file's order first", async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-admin-'));
    const env = { dataDir, inMemoryDatabase: false, adminKey: ADMIN };
    try {
      const first = await startTestGateway({ listen: false, env });
      expect(
        (
          await request(first.app)
            .put('/admin/models/added-later')
            .set('Authorization', `Bearer ${ADMIN}`)
            .send({ kind: 'text', provider: 'sim' })
        ).status,
      ).toBe(200);
      expect((await request(first.app).delete('/admin/models/sim-video-2.0-mini').set('Authorization', `Bearer ${ADMIN}`)).status).toBe(
        200,
      );
      await first.stop();
      const second = await startTestGateway({ listen: false, env });
      const ids = (await request(second.app).get('/v1/models').set('Authorization', `Bearer ${BETA_KEY}`)).body.data.map(
        (m: { id: string }) => m.id,
      );
      await second.stop();
      expect(ids).toEqual([
        'sim-chat',
        'sim-image',
        'sim-video-2.5',
        'sim-video-2.0',
        'sim-video-2.0-fast',
        'sim-embed',
        'sim-speech',
        'sim-transcribe',
        'sim-rerank',
        'sim-moderation',
        'added-later',
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000); // two gateways opening PGlite on disk, one after the other: seconds each on a loaded machine
});

describeWithService('TEST_DATABASE_URL', 'admin changes reach a second running instance (shared Postgres)', (pgUrl) => {
  it('a new model, and a key revocation, apply on the other instance within the poll interval', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const env = {
      databaseUrl: pgUrl,
      databaseSchema: schema,
      inMemoryDatabase: false,
      adminKey: ADMIN,
      configPollMs: 200,
      keyCacheTtlMs: 200,
    };
    const a = await startTestGateway({ listen: false, env });
    const b = await startTestGateway({ listen: false, env });
    await b.startBackground();
    try {
      const put = await request(a.app)
        .put('/admin/models/sim-chat-3')
        .set('Authorization', `Bearer ${ADMIN}`)
        .send({ kind: 'text', provider: 'sim' });
      expect(put.status).toBe(200);
      const key = await request(a.app).post('/admin/keys').set('Authorization', `Bearer ${ADMIN}`).send({ account: 'beta', group: 'vip' });
      const call = (k: string) => request(b.app).post('/v1/chat/completions').set('Authorization', `Bearer ${k}`).send(chat('sim-chat-3'));
      await eventually(async () => expect((await call(key.body.key)).status).toBe(200));
      await request(a.app).delete(`/admin/keys/${key.body.id}`).set('Authorization', `Bearer ${ADMIN}`);
      await eventually(async () => expect((await call(key.body.key)).status).toBe(401));
    } finally {
      await a.stop();
      await b.stop();
      const { openDatabase } = await import('@gateway/store-postgres');
      const db = await openDatabase({ databaseUrl: pgUrl });
      await db.knex.raw(`drop schema if exists "${schema}" cascade`);
      await db.close();
    }
  }, 120_000);
});
