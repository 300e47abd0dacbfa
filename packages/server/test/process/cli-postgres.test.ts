import { randomBytes } from 'node:crypto';
import knex from 'knex';
import request from 'supertest';
import { describeWithService } from '@gateway/testkit';
import { runCliProcess } from '../support/gateway-process';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

jest.setTimeout(180_000);

const ADMIN = 'admin-key-for-the-cli-postgres-test';

/** `npx gateway keys:*` on PostgreSQL (the CLI opens the store itself there) against the admin API on the same store. */
describeWithService('TEST_DATABASE_URL', 'admin CLI on PostgreSQL', (url) => {
  const schema = `cli_${randomBytes(5).toString('hex')}`;
  let gw: TestGateway;
  const cli = (...args: string[]) => runCliProcess(args, { DATABASE_URL: url, DATABASE_SCHEMA: schema });
  beforeAll(async () => {
    // a gateway seeds the store's catalogue (the test config: group default lists its models, vip has '*')
    gw = await startTestGateway({
      listen: false,
      env: { databaseUrl: url, databaseSchema: schema, inMemoryDatabase: false, adminKey: ADMIN, keyCacheTtlMs: 0 },
    });
  });
  afterAll(async () => {
    await gw.stop();
    const admin = knex({ client: 'pg', connection: url });
    await admin.raw(`drop schema if exists "${schema}" cascade`);
    await admin.destroy();
  });

  it('keys:create --models takes the models of the key’s group, as the admin API does, and the key then works', async () => {
    expect((await cli('accounts:create', 'acme')).code).toBe(0);
    for (const group of ['default', 'vip']) {
      const created = await cli('keys:create', '--account', 'acme', '--group', group, '--models', 'sim-chat');
      expect(created).toMatchObject({ code: 0, err: '' });
      const id = /key (\S+) for acme/.exec(created.out)![1];
      const key = /sk-[A-Za-z0-9]+/.exec(created.out)![0];
      expect((await cli('keys:list', '--account', 'acme')).out.split('\n').find((l) => l.startsWith(id!))).toContain('models sim-chat');
      // the admin API reads the same allowlist
      const viaApi = await request(gw.app).get(`/admin/keys/${id}`).set('Authorization', `Bearer ${ADMIN}`);
      expect(viaApi.body.models).toEqual(['sim-chat']);
      const chat = await request(gw.app)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] });
      expect(chat.status).toBe(200);
    }
  });

  it('refuses a model outside the group with the admin API’s own message', async () => {
    expect((await cli('accounts:create', 'globex')).code).toBe(0);
    const api = await request(gw.app)
      .post('/admin/keys')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ account: 'globex', group: 'default', models: ['sim-video-2.5'] });
    expect(api.status).toBe(400);
    const viaCli = await cli('keys:create', '--account', 'globex', '--group', 'default', '--models', 'sim-video-2.5');
    expect(viaCli.code).toBe(1);
    expect(viaCli.err).toContain(api.body.error.message);
    expect((await cli('keys:list', '--account', 'globex')).out).toBe('');
  });
});
