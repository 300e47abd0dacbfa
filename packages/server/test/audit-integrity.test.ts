import request from 'supertest';
import { KnexAuditedChanges } from '@gateway/store-postgres';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';
import { testStore } from './support/test-store';

/**
 * The audit log keeps what happened and tells each reader only what is theirs: TRUNCATE cannot erase it, an account's
 * admins never see the platform admin's address or identity provider subject, and the address recorded is the
 * client's as TRUST_PROXY says (X-Forwarded-For behind the proxy, the socket's otherwise).
 */
const ADMIN = 'sk-admin-audit-integrity-01';
const CLIENT = '203.0.113.7';

interface Row {
  actor: { type: string; id: string };
  action: string;
  target: { type: string; id: string };
  address: string | null;
}

describe.each([
  ['behind a trusted proxy (TRUST_PROXY)', true],
  ['without TRUST_PROXY', false],
])('audit log %s', (_name, trustProxy) => {
  let gw: TestGateway;
  const store = testStore();
  beforeAll(async () => {
    gw = await startTestGateway({
      listen: false,
      env: { adminKey: ADMIN, keyCacheTtlMs: 0, secret: 'audit-integrity-secret-0001', trustProxy, ...store.env },
    });
  }, 120_000);
  afterAll(async () => {
    await gw?.stop();
    await store.drop();
  });

  const admin = (method: 'get' | 'post' | 'put', p: string) =>
    request(gw.app)[method](p).set('Authorization', `Bearer ${ADMIN}`).set('X-Forwarded-For', `198.51.100.1, ${CLIENT}`);
  const tenant = (method: 'get' | 'post', p: string) =>
    request(gw.app)[method](p).set('Authorization', `Bearer ${ALPHA_KEY}`).set('X-Forwarded-For', CLIENT);
  const platformRows = async (query: string) => (await admin('get', `/admin/audit${query}`)).body.data as Row[];

  it('records the address X-Forwarded-For names only with TRUST_PROXY (its last entry: what the proxy saw), else the socket', async () => {
    expect((await admin('put', '/admin/accounts/alpha/quota').send({ credit_limit: 900, period: 'monthly' })).status).toBe(200);
    const made = await tenant('post', '/v1/keys').send({ name: 'by-tenant' });
    expect(made.status).toBe(201);
    const hook = await tenant('post', '/v1/webhook_endpoints').send({ url: 'https://hooks.example.com/integrity' });
    expect([hook.status, hook.body.error]).toEqual([200, undefined]);

    const rows = [
      ...(await platformRows('?action=quota.update&target=quota:alpha')),
      ...(await platformRows(`?target=key:${made.body.id}`)),
      ...(await platformRows(`?target=webhook_endpoint:${hook.body.id}`)),
    ];
    expect(rows.map((r) => r.action)).toEqual(['quota.update', 'key.create', 'webhook_endpoint.create']);
    for (const r of rows) {
      if (trustProxy) expect(r.address).toBe(CLIENT);
      else expect(r.address).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    }
  });

  it("shows an account's admins the platform admin's changes without its address or identity provider subject", async () => {
    // a platform admin signed in with single sign-on changes the account (recorded as the admin routes record it)
    await new KnexAuditedChanges(gw.db.knex).run(
      { actor: { type: 'sso', id: 'ada-platform-subject' }, requestId: 'req_sso', address: '192.0.2.44' },
      async () => ({
        result: undefined,
        audit: { action: 'account.update', target: { type: 'account', id: 'alpha' }, accountId: 'alpha', before: null, after: null },
      }),
    );
    const res = await tenant('get', '/v1/audit');
    expect(res.status).toBe(200);
    const rows = res.body.data as Row[];
    const byPlatform = rows.filter((r) => r.actor.type !== 'key');
    expect(byPlatform.map((r) => [r.action, r.actor, r.address])).toEqual(
      expect.arrayContaining([
        ['account.update', { type: 'sso', id: '(hidden)' }, null],
        ['quota.update', { type: 'admin_key', id: 'admin' }, null],
      ]),
    );
    expect(byPlatform.every((r) => r.address === null)).toBe(true);
    // the account's own keys' changes are shown whole
    const own = rows.find((r) => r.action === 'key.create')!;
    expect(own.actor.type).toBe('key');
    expect(own.address).toEqual(expect.any(String));
    const csv = await tenant('get', '/v1/audit?export=csv');
    for (const text of [JSON.stringify(res.body), csv.text]) {
      expect(text).not.toContain('ada-platform-subject');
      expect(text).not.toContain('192.0.2.44');
    }
    // the platform admin still reads everything
    expect((await platformRows('?action=account.update&target=account:alpha'))[0]).toMatchObject({
      actor: { type: 'sso', id: 'ada-platform-subject' },
      address: '192.0.2.44',
    });
  });

  it('refuses a tenant actor filter that would probe a hidden identity; a key id filters that key', async () => {
    const probe = await tenant('get', '/v1/audit?actor=sso:ada-platform-subject');
    expect([probe.status, probe.body.error?.code]).toEqual([400, 'invalid_parameter']);
    const mine = await tenant('get', '/v1/audit?actor=ada-platform-subject');
    expect([mine.status, mine.body.data]).toEqual([200, []]);
    expect((await tenant('get', '/v1/audit?actor=admin_key:admin')).body.data.length).toBeGreaterThan(0);
  });

  it('cannot be erased with TRUNCATE', async () => {
    const count = async () => Number((await gw.db.knex('audit_log').count<{ n: string }[]>('* as n'))[0]!.n);
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await expect(gw.db.knex.raw('truncate audit_log')).rejects.toThrow(/append-only/);
    expect(await count()).toBe(before);
  });
});
