import request from 'supertest';
import type { RouteDoc } from '@gateway/http-kit';
import { GATEWAY_ROUTE_DOCS } from '../src/openapi';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

/**
 * The role rule, table-driven over every route declaration (the objects mountRoutes mounts, requireKey enforces and
 * /openapi.json documents): a keyed route states the role it needs, a member key gets 403 `forbidden_role` in the
 * route's own shape wherever an account admin's key is needed, and nowhere else. A route added without a role fails
 * here (and in tsc).
 */
const ADMIN = 'sk-admin-roles-0001';
const keyed = GATEWAY_ROUTE_DOCS.filter((d): d is RouteDoc & { auth: { kind: 'api-key' } } => d.auth.kind === 'api-key');
const label = (d: RouteDoc) => `${d.method.toUpperCase()} ${d.path}`;
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x_1');

describe('every route states who may call it', () => {
  it.each(GATEWAY_ROUTE_DOCS.map((d) => [label(d), d] as const))('%s', (_name, d) => {
    const a = d.auth as { kind: string; role?: unknown; why?: unknown };
    expect(['api-key', 'admin-key', 'none']).toContain(a.kind);
    if (a.kind === 'api-key') expect(['member', 'admin']).toContain(a.role);
    if (a.kind === 'none') expect(typeof a.why).toBe('string');
  });

  it('states the contract: keys, webhook endpoints and the audit slice are for account admins; models, tasks and usage for members', () => {
    const roleOf = (method: string, path: string) => keyed.find((d) => d.method === method && d.path === path)?.auth.role;
    for (const [m, p] of [
      ['get', '/v1/keys'],
      ['post', '/v1/keys'],
      ['patch', '/v1/keys/{id}'],
      ['post', '/v1/keys/{id}/rotate'],
      ['delete', '/v1/keys/{id}'],
      ['get', '/v1/audit'],
      ['get', '/v1/webhook_endpoints'],
      ['post', '/v1/webhook_endpoints'],
      ['delete', '/v1/webhook_endpoints/{id}'],
    ] as const)
      expect([m, p, roleOf(m, p)]).toEqual([m, p, 'admin']);
    for (const [m, p] of [
      ['post', '/v1/chat/completions'],
      ['post', '/v1/messages'],
      ['post', '/v1/videos'],
      ['get', '/v1/videos/{id}'],
      ['post', '/v1/contents/generations/tasks'],
      ['get', '/v1/usage'],
    ] as const)
      expect([m, p, roleOf(m, p)]).toEqual([m, p, 'member']);
  });
});

describe('the role rule on the real app', () => {
  let gw: TestGateway;
  let member: string;
  beforeAll(async () => {
    gw = await startTestGateway({ listen: false, env: { adminKey: ADMIN, keyCacheTtlMs: 0 } });
    const res = await request(gw.app).post('/admin/keys').set('Authorization', `Bearer ${ADMIN}`).send({ account: 'alpha' });
    expect(res.body.role).toBe('member'); // a key made without a role has the least powers
    member = res.body.key;
  }, 120_000);
  afterAll(async () => gw?.stop());

  const call = (d: RouteDoc, key: string) => {
    const r = request(gw.app)[d.method](concrete(d.path)).set('Authorization', `Bearer ${key}`).timeout(30_000);
    return d.method === 'get' || d.method === 'delete' ? r : r.send({});
  };

  const adminRoutes = keyed.filter((d) => d.auth.role === 'admin');
  const memberRoutes = keyed.filter((d) => d.auth.role === 'member');

  it.each(adminRoutes.map((d) => [label(d), d] as const))(
    'a member key gets 403 forbidden_role on %s; an account admin does not',
    async (_n, d) => {
      const refused = await call(d, member);
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).toContain('"forbidden_role"');
      const allowed = await call(d, ALPHA_KEY); // a config-file key without a role: account admin
      expect(JSON.stringify(allowed.body)).not.toContain('forbidden_role');
    },
  );

  it.each(memberRoutes.map((d) => [label(d), d] as const))('a member key is not refused for its role on %s', async (_n, d) => {
    const res = await call(d, member);
    expect(res.status).not.toBe(403);
  });

  it("answers forbidden_role in the route's own error shape (OpenAI's on /v1/webhook_endpoints)", async () => {
    const res = await request(gw.app).get('/v1/webhook_endpoints').set('Authorization', `Bearer ${member}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: expect.objectContaining({
        code: 'forbidden_role',
        type: expect.any(String),
        message: expect.stringContaining('account admin'),
      }),
    });
  });

  it("a bad key on an admin route is still the route's own 401, not a role refusal", async () => {
    const res = await request(gw.app).get('/v1/keys').set('Authorization', 'Bearer sk-not-a-real-key-000000');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
  });

  it('narrows /v1/usage to the member key itself; an account admin sees the whole account', async () => {
    for (const key of [member, ALPHA_KEY]) {
      const res = await request(gw.app)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(200);
    }
    await gw.usage.flush();
    const memberId = (await request(gw.app).get('/admin/keys?account=alpha').set('Authorization', `Bearer ${ADMIN}`)).body.data.find(
      (k: { role: string; revoked_at: string | null }) => k.role === 'member' && !k.revoked_at,
    ).id;
    const own = await request(gw.app).get('/v1/usage').set('Authorization', `Bearer ${member}`);
    expect(own.status).toBe(200);
    expect(own.body.data.length).toBeGreaterThan(0);
    expect(new Set(own.body.data.map((r: { key_id: string }) => r.key_id))).toEqual(new Set([memberId]));
    const all = await request(gw.app).get('/v1/usage').set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(new Set(all.body.data.map((r: { key_id: string }) => r.key_id)).size).toBeGreaterThan(1);
    const other = await request(gw.app).get('/v1/usage?key_id=key_someoneelse').set('Authorization', `Bearer ${member}`);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('forbidden_role');
  });

  it('takes role admin or member on POST /admin/keys and refuses anything else', async () => {
    const admin = (body: object) => request(gw.app).post('/admin/keys').set('Authorization', `Bearer ${ADMIN}`).send(body);
    const made = await admin({ account: 'alpha', role: 'admin' });
    expect(made.status).toBe(201);
    expect(made.body.role).toBe('admin');
    expect((await request(gw.app).get('/v1/keys').set('Authorization', `Bearer ${made.body.key}`)).status).toBe(200);
    const bad = await admin({ account: 'alpha', role: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_role', param: 'role' });
  });
});
