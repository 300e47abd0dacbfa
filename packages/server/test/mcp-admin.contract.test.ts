import request from 'supertest';
import { eventually } from '@gateway/testkit';
import { capturedLog } from './support/captured-log';
import { startFakeMcpServer, type FakeMcpServer } from './support/fake-mcp-server';
import { BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';
import { testStore } from './support/test-store';

/**
 * MCP servers registered through the admin API (docs/mcp.md, "Registering servers"): a loopback MCP server needing a
 * credential header, registered, listed and called through /mcp with a key, changed, refused, deleted; the header's
 * value never in an answer, the audit log, the stored row or the logs. On the embedded store, and on PostgreSQL when
 * TEST_DATABASE_URL is set (where a second instance sees each change).
 */
const ADMIN = 'admin-mcp-admin-contract-key';
const SECRET = 'a-gateway-secret-for-mcp-admin-tests';
const TOKEN = 'Bearer mcp-upstream-secret-7f3a9c';
const LEAK = 'mcp-upstream-secret';

const postgres = process.env.TEST_DATABASE_URL ? [{ name: 'postgres', store: testStore() }] : [];
const targets = [{ name: 'pglite', store: { env: {}, drop: async () => undefined } }, ...postgres];

let fake: FakeMcpServer;
/** the fake's loopback address allowed, as an operator would (read when each gateway builds its config) */
const allowFake = () => ({ variables: { WEBHOOK_ALLOWED_HOSTS: new URL(fake.url).host } });
beforeAll(async () => {
  fake = await startFakeMcpServer({ tools: ['read', 'write'], requireHeader: ['authorization', TOKEN] });
});
afterAll(async () => {
  await fake.close();
});

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
let nextId = 1;
const rpc = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method,
  params: { _meta: MODERN, ...params },
});

describe.each(targets)('MCP servers through the admin API ($name)', ({ name, store }) => {
  let gw: TestGateway;
  const log = capturedLog('debug');
  beforeAll(async () => {
    gw = await startTestGateway({
      listen: false,
      env: { ...store.env, ...allowFake(), adminKey: ADMIN, secret: SECRET },
      logger: log.logger,
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await store.drop();
  });

  const admin = (method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string, app = gw.app) =>
    request(app)[method](path).set('Authorization', `Bearer ${ADMIN}`);
  const mcp = (body: object, key = BETA_KEY) => request(gw.app).post('/mcp').set('Authorization', `Bearer ${key}`).send(body);
  const toolNames = async () => ((await mcp(rpc('tools/list'))).body.result.tools as Array<{ name: string }>).map((t) => t.name);

  it('registers a server with a credential header, shows the header by name only, and serves its tools through /mcp', async () => {
    const made = await admin('post', '/admin/mcp/servers').send({ id: 'git', url: fake.url, headers: { Authorization: TOKEN } });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ id: 'git', source: 'admin', url: fake.url, headers: ['authorization'], pricePerCall: null });

    const list = await admin('get', '/admin/mcp/servers');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { id: 'sim', source: 'file', url: 'builtin:simulator', headers: [], pricePerCall: null, status: 'ok', tools: 3 },
      { id: 'git', source: 'admin', url: fake.url, headers: ['authorization'], pricePerCall: null, status: 'ok', tools: 2 },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(LEAK);

    expect(await toolNames()).toEqual(expect.arrayContaining(['sim__echo', 'git__read', 'git__write']));
    const call = await mcp(rpc('tools/call', { name: 'git__read', arguments: { path: 'README.md' } }));
    expect(call.body.result.content).toEqual([{ type: 'text', text: 'read:{"path":"README.md"}' }]);
    // the credential went upstream, and nothing of the caller's did
    const last = fake.seen[fake.seen.length - 1]!;
    expect(last.authorization).toBe(TOKEN);
    expect(JSON.stringify(fake.seen)).not.toContain(BETA_KEY);
  });

  it('stores the header sealed and audits the change without its value', async () => {
    const row = await gw.db.knex('mcp_servers').where({ id: 'git' }).first();
    expect(row.url).toBe(fake.url);
    expect(JSON.stringify(row)).not.toContain(LEAK);
    const audit = await admin('get', '/admin/audit?target=mcp_server:git');
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        action: 'mcp_server.create',
        actor: { type: 'admin_key', id: 'admin' },
        before: null,
        after: { id: 'git', url: fake.url, headers: ['authorization'], pricePerCall: null },
      }),
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(LEAK);
  });

  it('changes a registered server: a price, a header added, the kept credential still sent', async () => {
    const changed = await admin('patch', '/admin/mcp/servers/git').send({ pricePerCall: 2, headers: { 'X-Team': 'blue' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ pricePerCall: 2, headers: ['authorization', 'x-team'] });
    const call = await mcp(rpc('tools/call', { name: 'git__write', arguments: { text: 'x' } }));
    expect(call.body.result.content[0].text).toBe('write:{"text":"x"}');
    expect(fake.seen[fake.seen.length - 1]).toMatchObject({ authorization: TOKEN, 'x-team': 'blue' });
    await gw.usage.flush();
    const usage = await gw.db.knex('usage_log').where({ request_id: call.headers['x-request-id'] }).first();
    expect(usage).toMatchObject({ model: 'git__write', provider: 'git', status: 'ok' });
    expect(Number(usage.credits)).toBe(2);
    const audit = await admin('get', '/admin/audit?action=mcp_server.update');
    expect(audit.body.data[0]).toMatchObject({
      before: { pricePerCall: null },
      after: { pricePerCall: 2, headers: ['authorization', 'x-team'] },
    });
  });

  it('refuses bad input with 400 in the admin error shape, and collisions and config file servers with 409', async () => {
    const post = (body: unknown) => admin('post', '/admin/mcp/servers').send(body as object);
    const refusals: Array<[unknown, number, string, string?]> = [
      [{ id: 'git__hub', url: fake.url }, 400, 'invalid_id', 'id'],
      [{ url: fake.url }, 400, 'invalid_id', 'id'],
      [{ id: 'docs' }, 400, 'invalid_webhook_url', 'url'],
      [{ id: 'docs', url: 'http://mcp.example.com/' }, 400, 'invalid_webhook_url', 'url'],
      [{ id: 'docs', url: 'https://10.0.0.7/mcp' }, 400, 'forbidden_webhook_url', 'url'],
      [{ id: 'docs', url: fake.url, headers: { Authorization: 'env:DATABASE_URL' } }, 400, 'invalid_header', 'headers.Authorization'],
      [{ id: 'docs', url: fake.url, headers: { 'Mcp-Session-Id': 'x' } }, 400, 'invalid_header', 'headers.Mcp-Session-Id'],
      [{ id: 'docs', url: fake.url, headers: ['a'] }, 400, 'invalid_headers', 'headers'],
      [{ id: 'docs', url: fake.url, headers: { 'X-Team': 5 } }, 400, 'invalid_header', 'headers.X-Team'],
      [{ id: 'docs', url: fake.url, headers: { 'X-Team': 'a\nb' } }, 400, 'invalid_header', 'headers.X-Team'],
      [{ id: 'docs', url: fake.url, pricePerCall: -1 }, 400, 'invalid_price', 'pricePerCall'],
      [{ id: 'docs', url: fake.url, pricePerCall: '1' }, 400, 'invalid_price', 'pricePerCall'],
      [{ id: 5, url: fake.url }, 400, 'invalid_id', 'id'],
      [{ id: 'docs', url: fake.url, colour: 'red' }, 400, 'unknown_field', 'colour'],
      [{ id: 'sim', url: fake.url }, 409, 'mcp_server_exists', 'id'],
      [{ id: 'GIT', url: fake.url }, 409, 'mcp_server_exists', 'id'],
    ];
    for (const [body, status, code, param] of refusals) {
      const res = await post(body);
      expect({ body, status: res.status, code: res.body.error?.code, param: res.body.error?.param }).toEqual({ body, status, code, param });
      expect(res.body.error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    }
    const notJson = await admin('post', '/admin/mcp/servers').set('content-type', 'application/json').send('{"id":');
    expect(notJson.status).toBe(400);
    expect((await admin('patch', '/admin/mcp/servers/sim').send({ pricePerCall: 1 })).body.error.code).toBe('mcp_server_config_owned');
    expect((await admin('delete', '/admin/mcp/servers/sim')).status).toBe(409);
    expect((await admin('patch', '/admin/mcp/servers/nope').send({})).status).toBe(404);
    expect((await admin('patch', '/admin/mcp/servers/git').send({ url: 'ftp://x' })).body.error.code).toBe('invalid_webhook_url');
    // the route's declared schema is checked before the handler: an unknown field is refused as such, in the admin
    // error shape, even on a config file server the handler would refuse with 409
    for (const id of ['sim', 'git']) {
      const res = await admin('patch', `/admin/mcp/servers/${id}`).send({ id: 'other' });
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 400,
        error: expect.objectContaining({
          code: 'unknown_field',
          param: 'id',
          message: 'Unknown field "id"; known: url, headers, pricePerCall.',
        }),
      });
    }
    const asKey = await request(gw.app)
      .post('/admin/mcp/servers')
      .set('Authorization', `Bearer ${BETA_KEY}`)
      .send({ id: 'x', url: fake.url });
    expect(asKey.status).toBe(401);
    expect((await admin('get', '/admin/audit?target=mcp_server:docs')).body.data).toEqual([]);
  });

  it("keeps a server a group's list names, then deletes it: gone from /mcp, audited", async () => {
    const vip = await admin('put', '/admin/groups/vip').send({ models: ['*'], mcp: ['git__read', 'sim'] });
    expect(vip.status).toBe(200);
    const kept = await admin('delete', '/admin/mcp/servers/git');
    expect(kept.status).toBe(400);
    expect(kept.body.error.code).toBe('invalid_config_change');
    expect(kept.body.error.message).toContain('git__read');
    expect((await admin('put', '/admin/groups/vip').send({ models: ['*'] })).status).toBe(200);

    const gone = await admin('delete', '/admin/mcp/servers/git');
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ id: 'git', deleted: true });
    expect(await toolNames()).toEqual(['sim__echo', 'sim__get_weather', 'sim__generate_image']);
    expect((await mcp(rpc('tools/call', { name: 'git__read' }))).body.error.code).toBe(-32602);
    expect((await admin('get', '/admin/mcp/servers')).body.data.map((s: { id: string }) => s.id)).toEqual(['sim']);
    const audit = await admin('get', '/admin/audit?target=mcp_server:git');
    expect(audit.body.data.map((r: { action: string }) => r.action)).toEqual([
      'mcp_server.delete',
      'mcp_server.update',
      'mcp_server.create',
    ]);
    expect(audit.body.data[0].after).toBeNull();
  });

  it('never wrote the header value to its logs', () => {
    expect(log.text()).not.toContain(LEAK);
  });

  if (name === 'postgres')
    it('is seen by another instance on the same database once it reloads', async () => {
      const env = { ...store.env, ...allowFake(), dataDir: gw.dataDir, adminKey: ADMIN, secret: SECRET, configPollMs: 50 };
      const other = await startTestGateway({ listen: false, env });
      try {
        await other.startBackground();
        const made = await admin('post', '/admin/mcp/servers').send({ id: 'docs', url: fake.url, headers: { Authorization: TOKEN } });
        expect(made.status).toBe(201);
        await eventually(async () => {
          const seen = await admin('get', '/admin/mcp/servers', other.app);
          expect(seen.body.data).toContainEqual(expect.objectContaining({ id: 'docs', status: 'ok', tools: 2 }));
        }, 20_000);
        expect((await admin('delete', '/admin/mcp/servers/docs')).status).toBe(200);
        await eventually(async () => {
          const seen = await admin('get', '/admin/mcp/servers', other.app);
          expect(seen.body.data.map((s: { id: string }) => s.id)).toEqual(['sim']);
        }, 20_000);
      } finally {
        await other.stop();
      }
    });
});
