import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import request from 'supertest';
import { describeWithService } from '@gateway/testkit';
import { KnexAuditedChanges, openDatabase } from '@gateway/store-postgres';
import { runCli } from '../src/cli';
import { envFromProcess } from '../src/gateway';
import { seedEmbeddedStore } from './support/gateway-process';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

/**
 * Every change through the admin API, self-service and the CLI writes one audit record (who, what before and after
 * with secrets masked, when, request id, address), in the change's own transaction; a refused change writes none.
 * The same suite runs on the embedded store and, with TEST_DATABASE_URL, on PostgreSQL.
 */
const ADMIN = 'sk-admin-audit-00001';

interface Row {
  id: string;
  at: string;
  actor: { type: string; id: string };
  action: string;
  target: { type: string; id: string };
  account: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
  address: string | null;
}

function cli(env: Record<string, string>) {
  return async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, envFromProcess(env));
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}

/** `cliOnDatabase`: the CLI writes the same database (PostgreSQL); the embedded store's CLI case is its own suite below. */
function auditSuite(start: () => Promise<{ gw: TestGateway; cliEnv?: Record<string, string> }>, cliOnDatabase = false) {
  let gw: TestGateway;
  let cliEnv: Record<string, string> | undefined;
  beforeAll(async () => {
    ({ gw, cliEnv } = await start());
  }, 120_000);
  afterAll(async () => gw?.stop());

  const admin = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', p: string) =>
    request(gw.app)[method](p).set('Authorization', `Bearer ${ADMIN}`);
  const audit = async (query = '') => {
    const res = await admin('get', `/admin/audit${query}`);
    expect(res.status).toBe(200);
    return res.body.data as Row[];
  };
  const count = async () => (await gw.db.knex('audit_log').count<{ n: string }[]>('* as n'))[0]!.n;

  it('records each admin API change once, with its author, request id, address, before and after (no secret)', async () => {
    const acc = await admin('post', '/admin/accounts').send({ id: 'gamma', name: 'Gamma' });
    const quota = await admin('put', '/admin/accounts/gamma/quota').send({ credit_limit: 500, period: 'monthly' });
    const made = await admin('post', '/admin/keys').send({ account: 'gamma', name: 'svc' });
    const changed = await admin('patch', `/admin/keys/${made.body.id}`).send({ name: 'svc-2' });
    const revoked = await admin('delete', `/admin/keys/${made.body.id}`);
    const group = await admin('put', '/admin/groups/audited').send({ models: ['sim-chat'] });
    const ungroup = await admin('delete', '/admin/groups/audited');
    expect([acc, quota, made, changed, revoked, group, ungroup].map((r) => r.status)).toEqual([201, 200, 201, 200, 200, 200, 200]);

    const rows = (await audit('?actor=admin_key:admin')).reverse();
    const expected: Array<[string, string, string, unknown]> = [
      ['account.create', 'account', 'gamma', acc],
      ['quota.update', 'quota', 'gamma', quota],
      ['key.create', 'key', made.body.id, made],
      ['key.update', 'key', made.body.id, changed],
      ['key.revoke', 'key', made.body.id, revoked],
      ['group.create', 'group', 'audited', group],
      ['group.delete', 'group', 'audited', ungroup],
    ];
    expect(rows.map((r) => [r.action, r.target.type, r.target.id])).toEqual(expected.map(([a, t, id]) => [a, t, id]));
    rows.forEach((r, i) => {
      expect(r.actor).toEqual({ type: 'admin_key', id: 'admin' });
      expect(r.request_id).toBe((expected[i]![3] as request.Response).headers['x-request-id']);
      expect(r.address).toEqual(expect.any(String));
      expect(Number.isNaN(Date.parse(r.at))).toBe(false);
    });
    expect(rows[1]).toMatchObject({ before: { limit: null }, after: { limit: 500, period: 'monthly' } });
    expect(rows[2]).toMatchObject({ account: 'gamma', before: null, after: { name: 'svc', role: 'member' } });
    expect(rows[3]).toMatchObject({ before: { name: 'svc' }, after: { name: 'svc-2' } });
    expect(rows[4]).toMatchObject({ before: { revoked_at: null }, after: { revoked_at: expect.any(String) } });
    expect(rows[6]).toMatchObject({ before: { name: 'audited', models: ['sim-chat'] }, after: null });
    expect(JSON.stringify(await gw.db.knex('audit_log'))).not.toContain(made.body.key);
  });

  it('writes no record for a refused change', async () => {
    const before = await count();
    const member = (await admin('post', '/admin/keys').send({ account: 'alpha' })).body.key as string;
    const afterSetup = await count();
    expect(Number(afterSetup)).toBe(Number(before) + 1);
    const refused = [
      await admin('post', '/admin/keys').send({ account: 'nope' }),
      await admin('post', '/admin/keys').send({ account: 'alpha', role: 'owner' }),
      await admin('patch', '/admin/keys/key_nope').send({ name: 'x' }),
      await admin('delete', '/admin/keys/key_nope'),
      await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: -1 }),
      await admin('put', '/admin/groups/broken').send({ models: 'not-a-list' }),
      await request(gw.app).post('/v1/keys').set('Authorization', `Bearer ${ALPHA_KEY}`).send({ group: 'vip' }),
      await request(gw.app).post('/v1/keys').set('Authorization', `Bearer ${member}`).send({}),
      await request(gw.app).post('/admin/keys').set('Authorization', 'Bearer sk-wrong-admin-key-000').send({ account: 'alpha' }),
    ];
    for (const r of refused) expect(r.status).toBeGreaterThanOrEqual(400);
    expect(await count()).toBe(afterSetup);
  });

  it('renames an account through PATCH /admin/accounts/{id}: one account.update record; none for a refused or no-op change', async () => {
    expect((await admin('post', '/admin/accounts').send({ id: 'renamed', name: 'Old name' })).status).toBe(201);
    const renamed = await admin('patch', '/admin/accounts/renamed').send({ name: 'New name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: 'renamed', name: 'New name' });
    expect((await admin('get', '/admin/accounts/renamed')).body.name).toBe('New name');
    const cleared = await admin('patch', '/admin/accounts/renamed').send({ name: null });
    expect(cleared.body).toMatchObject({ id: 'renamed', name: 'renamed' });

    const rows = (await audit('?target=account:renamed&action=account.update')).reverse();
    expect(rows.map((r) => [r.actor, r.account, r.request_id, r.before?.name, r.after?.name])).toEqual([
      [{ type: 'admin_key', id: 'admin' }, 'renamed', renamed.headers['x-request-id'], 'Old name', 'New name'],
      [{ type: 'admin_key', id: 'admin' }, 'renamed', cleared.headers['x-request-id'], 'New name', 'renamed'],
    ]);

    const before = await count();
    const member = (await admin('post', '/admin/keys').send({ account: 'alpha' })).body.key as string;
    const afterSetup = await count();
    const byKey = (key: string) => request(gw.app).patch('/admin/accounts/renamed').set('Authorization', `Bearer ${key}`);
    const refused = [
      await admin('patch', '/admin/accounts/nope').send({ name: 'x' }),
      await admin('patch', '/admin/accounts/renamed').send({ name: 'x', id: 'other' }),
      await admin('patch', '/admin/accounts/renamed').send({ name: 'x'.repeat(201) }),
      await admin('patch', '/admin/accounts/renamed').send({ name: 42 }),
      await admin('patch', '/admin/accounts/renamed').send([]),
      await byKey(ALPHA_KEY).send({ name: 'x' }),
      await byKey(member).send({ name: 'x' }),
    ];
    expect(refused.map((r) => [r.status, r.body.error?.code])).toEqual([
      [404, 'account_not_found'],
      [400, 'unknown_field'],
      [400, 'invalid_name'],
      [400, 'invalid_name'],
      [400, 'invalid_json'],
      [401, expect.any(String)],
      [401, expect.any(String)],
    ]);
    const unchanged = [
      await admin('patch', '/admin/accounts/renamed').send({ name: 'renamed' }),
      await admin('patch', '/admin/accounts/renamed').send({ name: null }),
      await admin('patch', '/admin/accounts/renamed').send({}),
    ];
    for (const r of unchanged) expect([r.status, r.body.name]).toEqual([200, 'renamed']);
    expect(Number(afterSetup)).toBe(Number(before) + 1);
    expect(await count()).toBe(afterSetup);
    expect((await admin('get', '/admin/accounts/renamed')).body.name).toBe('renamed');
  });

  it("records self-service changes with the account admin's key as author; /v1/audit shows the account's own slice", async () => {
    const alphaId = (await admin('get', '/admin/keys?account=alpha')).body.data.find(
      (k: { role: string; name: string | null }) => k.role === 'admin',
    ).id;
    const made = await request(gw.app).post('/v1/keys').set('Authorization', `Bearer ${ALPHA_KEY}`).send({ name: 'self' });
    expect(made.status).toBe(201);
    const rotated = await request(gw.app)
      .post(`/v1/keys/${made.body.id}/rotate`)
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ grace_seconds: 30 });
    expect(rotated.status).toBe(200);

    const mine = await request(gw.app).get(`/v1/audit?target=key:${made.body.id}`).set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((r: Row) => [r.action, r.actor])).toEqual([
      ['key.rotate', { type: 'key', id: alphaId }],
      ['key.create', { type: 'key', id: alphaId }],
    ]);
    expect(JSON.stringify(mine.body)).not.toContain(rotated.body.key);
    expect(JSON.stringify(mine.body)).not.toContain(made.body.key);

    const all = (await request(gw.app).get('/v1/audit').set('Authorization', `Bearer ${ALPHA_KEY}`)).body.data as Row[];
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((r) => r.account === 'alpha')).toBe(true);
    const beta = (await request(gw.app).get('/v1/audit').set('Authorization', `Bearer ${BETA_KEY}`)).body.data as Row[];
    expect(beta.map((r) => r.target.id)).not.toContain(made.body.id);
  });

  it('records webhook endpoint changes and secret re-issues (secrets masked), and none for a refused one', async () => {
    const alpha = (p: string) => request(gw.app).post(p).set('Authorization', `Bearer ${ALPHA_KEY}`);
    const alphaId = (await admin('get', '/admin/keys?account=alpha')).body.data.find((k: { role: string }) => k.role === 'admin').id;
    const made = await alpha('/v1/webhook_endpoints').send({ url: 'https://hooks.example.com/audit', events: ['video.completed'] });
    const byAdmin = await admin('post', '/admin/accounts/beta/webhook_endpoints').send({ url: 'https://hooks.example.com/beta' });
    const changed = await request(gw.app)
      .patch(`/v1/webhook_endpoints/${made.body.id}`)
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ events: ['video.completed', 'video.failed'] });
    const endpointSecret = await admin('post', `/admin/webhook_endpoints/${made.body.id}/secret`);
    const accountSecret = await admin('post', '/admin/accounts/alpha/webhook_secret');
    const deleted = await request(gw.app).delete(`/v1/webhook_endpoints/${made.body.id}`).set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect([made, byAdmin, changed, endpointSecret, accountSecret, deleted].map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(changed.body).toMatchObject({
      id: made.body.id,
      url: 'https://hooks.example.com/audit',
      events: ['video.completed', 'video.failed'],
    });

    const rows = (await audit('?target=webhook_endpoint:' + made.body.id)).reverse();
    expect(rows.map((r) => [r.action, r.actor, r.account, r.request_id])).toEqual([
      ['webhook_endpoint.create', { type: 'key', id: alphaId }, 'alpha', made.headers['x-request-id']],
      ['webhook_endpoint.update', { type: 'key', id: alphaId }, 'alpha', changed.headers['x-request-id']],
      ['webhook_secret.reissue', { type: 'admin_key', id: 'admin' }, 'alpha', endpointSecret.headers['x-request-id']],
      ['webhook_endpoint.delete', { type: 'key', id: alphaId }, 'alpha', deleted.headers['x-request-id']],
    ]);
    expect(rows[0]).toMatchObject({ before: null, after: { url: 'https://hooks.example.com/audit', events: ['video.completed'] } });
    expect(rows[1]).toMatchObject({ before: { events: ['video.completed'] }, after: { events: ['video.completed', 'video.failed'] } });
    expect(rows[3]).toMatchObject({ before: { id: made.body.id, url: 'https://hooks.example.com/audit' }, after: null });
    expect((await audit('?target=webhook_endpoint:' + byAdmin.body.id))[0]).toMatchObject({
      action: 'webhook_endpoint.create',
      account: 'beta',
    });
    expect((await audit('?target=account:alpha&action=webhook_secret.reissue'))[0]).toMatchObject({
      actor: { type: 'admin_key', id: 'admin' },
      request_id: accountSecret.headers['x-request-id'],
    });
    const mine = (await request(gw.app).get('/v1/audit?action=webhook_endpoint.create').set('Authorization', `Bearer ${ALPHA_KEY}`)).body
      .data as Row[];
    expect(mine.map((r) => r.target.id)).toEqual([made.body.id]);
    const stored = JSON.stringify(await gw.db.knex('audit_log'));
    for (const secret of [made.body.secret, byAdmin.body.secret, endpointSecret.body.secret, accountSecret.body.callback_secret])
      expect(stored).not.toContain(secret);

    const before = await count();
    const member = (await admin('post', '/admin/keys').send({ account: 'alpha' })).body.key as string;
    const afterSetup = await count();
    const refused = [
      await alpha('/v1/webhook_endpoints').send({ url: 'ftp://nope' }),
      await request(gw.app)
        .post('/v1/webhook_endpoints')
        .set('Authorization', `Bearer ${member}`)
        .send({ url: 'https://hooks.example.com/m' }),
      await request(gw.app).delete('/v1/webhook_endpoints/we_nope').set('Authorization', `Bearer ${ALPHA_KEY}`),
      await request(gw.app)
        .patch(`/v1/webhook_endpoints/${byAdmin.body.id}`)
        .set('Authorization', `Bearer ${ALPHA_KEY}`)
        .send({ events: ['video.failed'] }),
      await admin('patch', `/admin/webhook_endpoints/${byAdmin.body.id}`).send({ url: 'ftp://nope' }),
      await admin('patch', `/admin/webhook_endpoints/${byAdmin.body.id}`).send({}),
      await request(gw.app).delete(`/v1/webhook_endpoints/${byAdmin.body.id}`).set('Authorization', `Bearer ${ALPHA_KEY}`),
      await admin('post', '/admin/webhook_endpoints/we_nope/secret'),
      await admin('delete', '/admin/webhook_endpoints/we_nope'),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 403, 404, 404, 400, 400, 404, 404, 404]);
    expect(Number(afterSetup)).toBe(Number(before) + 1);
    expect(await count()).toBe(afterSetup);
  });

  it('filters by action, target and time, and exports CSV', async () => {
    const creates = await audit('?action=key.create');
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.every((r) => r.action === 'key.create')).toBe(true);
    const one = creates[0];
    expect((await audit(`?target=${one!.target.id}`)).map((r) => r.target.id)).toEqual(expect.arrayContaining([one!.target.id]));
    expect(await audit('?from=2999-01-01T00:00:00Z')).toEqual([]);
    expect((await audit(`?to=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).length).toBe(0);
    const csv = await admin('get', '/admin/audit?export=csv&action=key.create');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actor_type,actor_id,action,target_type,target_id,account,request_id,address,before,after');
    expect(lines.length).toBe(creates.length + 1);
    const bad = await admin('get', '/admin/audit?from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_time');
  });

  it('keeps records append-only: no route edits or deletes them, and the table refuses it', async () => {
    const [row] = await audit('?limit=1');
    for (const method of ['put', 'patch', 'delete'] as const)
      expect((await admin(method, `/admin/audit/${row!.id}`).send({})).status).toBe(404);
    expect((await request(gw.app).delete('/v1/audit').set('Authorization', `Bearer ${ALPHA_KEY}`)).status).toBe(404);
    await expect(gw.db.knex('audit_log').where({ id: row!.id }).update({ action: 'x.y' })).rejects.toThrow(/append-only/);
    await expect(gw.db.knex('audit_log').where({ id: row!.id }).delete()).rejects.toThrow(/append-only/);
  });

  it("records a change through the local token (the CLI talking to a running gateway) as the CLI's", async () => {
    const res = await request(gw.app).post('/admin/accounts').set('Authorization', `Bearer ${gw.localAdminToken}`).send({ id: 'delta' });
    expect(res.status).toBe(201);
    const [row] = await audit('?target=account:delta');
    expect(row).toMatchObject({ action: 'account.create', actor: { type: 'cli', id: 'cli' }, request_id: res.headers['x-request-id'] });
  });

  (cliOnDatabase ? it : it.skip)('records CLI changes with the CLI as author, and none for a refused command', async () => {
    const run = cli(cliEnv!);
    const created = await run('keys:create', '--account', 'alpha', '--role', 'admin');
    expect(created.code).toBe(0);
    expect(created.out).toContain('role admin');
    const before = await count();
    expect((await run('keys:create', '--account', 'alpha', '--role', 'owner')).code).toBe(1);
    expect(await count()).toBe(before);
    // the local-token test above also acts as the CLI (account.create): this command's record is the one key.create
    const rows = await audit('?actor=cli:cli&action=key.create');
    expect(rows.map((r) => [r.action, r.account, r.after?.role])).toEqual([['key.create', 'alpha', 'admin']]);
  });
}

describe('audit log on the embedded store', () => {
  auditSuite(async () => ({ gw: await startTestGateway({ listen: false, env: { adminKey: ADMIN, keyCacheTtlMs: 0 } }) }));
});

describeWithService('TEST_DATABASE_URL', 'audit log on PostgreSQL', (pgUrl) => {
  const schema = `audit_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    const db = knex({ client: 'pg', connection: pgUrl });
    await db.raw(`drop schema if exists "${schema}" cascade`);
    await db.destroy();
  });
  auditSuite(
    async () => ({
      gw: await startTestGateway({
        listen: false,
        env: {
          adminKey: ADMIN,
          keyCacheTtlMs: 0,
          secret: 'audit-suite-gateway-secret-0001',
          databaseUrl: pgUrl,
          databaseSchema: schema,
          inMemoryDatabase: false,
        },
      }),
      cliEnv: { DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema },
    }),
    true,
  );
});

describe('audit log: the CLI on the embedded store', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-audit-cli-'));
  seedEmbeddedStore({ DATA_DIR: dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('records accounts:create, keys:create --role, quota:set, keys:revoke and accounts:update with the CLI as author; a refused command writes none', async () => {
    const run = cli({ DATA_DIR: dataDir });
    expect((await run('accounts:create', 'acme')).code).toBe(0);
    const created = await run('keys:create', '--account', 'acme', '--group', 'default');
    expect(created.code).toBe(0);
    expect(created.out).toContain('role member');
    const id = /key (\S+) for acme/.exec(created.out)![1];
    expect((await run('quota:set', 'acme', '100')).code).toBe(0);
    expect((await run('keys:revoke', id!)).code).toBe(0);
    expect((await run('keys:revoke', id!)).code).toBe(1); // refused: already revoked
    expect((await run('quota:set', 'acme', 'lots')).code).toBe(1);
    expect(await run('accounts:update', 'acme', '--name', 'Acme Inc')).toMatchObject({ code: 0, out: 'account acme (Acme Inc)' });
    expect((await run('accounts:update', 'acme', '--name', 'Acme Inc')).code).toBe(0); // no change: no record
    expect(await run('accounts:update', 'ghost', '--name', 'x')).toMatchObject({
      code: 1,
      err: expect.stringContaining('No account "ghost"'),
    });
    expect((await run('accounts:update', 'acme')).code).toBe(1);

    const db = await openDatabase({ dataDir });
    try {
      const rows = (await new KnexAuditedChanges(db.knex).list({})).reverse();
      expect(rows.map((r) => [r.action, r.target.id, r.actor])).toEqual([
        ['account.create', 'acme', { type: 'cli', id: 'cli' }],
        ['key.create', id, { type: 'cli', id: 'cli' }],
        ['quota.update', 'acme', { type: 'cli', id: 'cli' }],
        ['key.revoke', id, { type: 'cli', id: 'cli' }],
        ['account.update', 'acme', { type: 'cli', id: 'cli' }],
      ]);
      expect(rows[4]).toMatchObject({ before: { name: 'acme' }, after: { name: 'Acme Inc' } });
      expect(JSON.stringify(rows)).not.toContain(/sk-[A-Za-z0-9]+/.exec(created.out)![0]);
    } finally {
      await db.close();
    }
  }, 180_000);
});
