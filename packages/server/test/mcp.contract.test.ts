import request from 'supertest';
import { buildConfig } from '../src/config';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';
import { testStore } from './support/test-store';

const store = testStore();
const ADMIN = 'admin-mcp-contract-key';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false, env: { ...store.env, adminKey: ADMIN } });
});
afterAll(async () => {
  await gw?.stop();
  await store.drop();
});

const MODERN = '2026-07-28';
const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
let nextId = 1;
const rpc = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: nextId++, method, params });

const post = (body: object, headers: Record<string, string> = {}, key = BETA_KEY, path = '/mcp') =>
  request(gw.app)
    .post(path)
    .set({ Authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream', ...headers })
    .send(body);

async function openSession(key = BETA_KEY): Promise<string> {
  const res = await post(
    rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }),
    {},
    key,
  );
  expect(res.status).toBe(200);
  expect(res.body.result.protocolVersion).toBe('2025-06-18');
  const session = res.headers['mcp-session-id'] as string;
  expect(session).toEqual(expect.any(String));
  const ack = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session }, key);
  expect(ack.status).toBe(202);
  return session;
}

describe('POST /mcp, older revisions (initialize and Mcp-Session-Id)', () => {
  it('lists the simulator tools as sim__<tool> and calls them', async () => {
    const session = await openSession();
    const s = { 'mcp-session-id': session };
    const list = await post(rpc('tools/list'), s);
    expect(list.status).toBe(200);
    expect(list.body.result.tools.map((t: { name: string }) => t.name)).toEqual(['sim__echo', 'sim__get_weather', 'sim__generate_image']);
    const echo = await post(rpc('tools/call', { name: 'sim__echo', arguments: { text: 'hello' } }), s);
    expect(echo.body.result).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    const paris = await post(rpc('tools/call', { name: 'sim__get_weather', arguments: { city: 'Paris' } }), s);
    const again = await post(rpc('tools/call', { name: 'sim__get_weather', arguments: { city: 'Paris' } }), s);
    expect(paris.body.result.structuredContent).toEqual(again.body.result.structuredContent);
    expect(paris.body.result.structuredContent).toMatchObject({ city: 'Paris', temperatureC: expect.any(Number) });
    const image = await post(rpc('tools/call', { name: 'sim__generate_image', arguments: { prompt: 'a red square', size: 64 } }), s);
    const [block] = image.body.result.content;
    expect(block.type).toBe('image');
    expect(block.mimeType).toBe('image/png');
    expect(Buffer.from(block.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('serves /mcp/ the same, never redirected', async () => {
    const res = await post(rpc('initialize', { protocolVersion: '2025-03-26' }), {}, BETA_KEY, '/mcp/');
    expect(res.status).toBe(200);
    expect(res.body.result.protocolVersion).toBe('2025-03-26');
  });

  it('asks for a session, and refuses one opened by another key or ended with DELETE', async () => {
    expect((await post(rpc('tools/list'))).status).toBe(400);
    const alphas = await openSession(ALPHA_KEY);
    const stolen = await post(rpc('tools/list'), { 'mcp-session-id': alphas });
    expect(stolen.status).toBe(404);
    expect(stolen.body.error.code).toBe(-32600);
    const mine = await openSession();
    const ended = await request(gw.app)
      .delete('/mcp')
      .set({ Authorization: `Bearer ${BETA_KEY}`, 'mcp-session-id': mine });
    expect(ended.status).toBe(204);
    expect((await post(rpc('tools/list'), { 'mcp-session-id': mine })).status).toBe(404);
  });

  it('answers an unknown tool and an unknown method with JSON-RPC errors', async () => {
    const s = { 'mcp-session-id': await openSession() };
    const tool = await post(rpc('tools/call', { name: 'sim__nope' }), s);
    expect(tool.status).toBe(200);
    expect(tool.body.result).toMatchObject({ isError: true });
    const server = await post(rpc('tools/call', { name: 'other__echo' }), s);
    expect(server.body.error).toMatchObject({ code: -32602, message: 'Unknown tool: other__echo.' });
    const method = await post(rpc('resources/list'), s);
    expect(method.body.error.code).toBe(-32601);
    expect((await post(rpc('ping'), s)).body.result).toEqual({});
  });
});

describe('POST /mcp, 2026-07-28 (stateless)', () => {
  it('discovers the endpoint with each server and its status, and lists tools without a session', async () => {
    const res = await post(
      { ...rpc('server/discover'), params: { _meta: meta } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
    );
    expect(res.status).toBe(200);
    expect(res.body.result.supportedVersions).toContain(MODERN);
    expect(res.body.result._meta['gateway/servers']).toEqual([{ id: 'sim', status: 'ok', tools: 3 }]);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    const list = await post({ ...rpc('tools/list'), params: { _meta: meta } }, { 'mcp-protocol-version': MODERN });
    expect(list.body.result).toMatchObject({ ttlMs: 0, cacheScope: 'private', resultType: 'complete' });
    expect(list.body.result.tools).toHaveLength(3);
    const call = await post({ ...rpc('tools/call'), params: { _meta: meta, name: 'sim__echo', arguments: { text: 'x' } } });
    expect(call.body.result.content).toEqual([{ type: 'text', text: 'x' }]);
  });
});

describe('auth and records', () => {
  it('takes the key as a bearer token or x-api-key; refuses without one in JSON-RPC, without OAuth metadata', async () => {
    const none = await request(gw.app).post('/mcp').send(rpc('ping'));
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
    expect(none.headers['www-authenticate']).toBeUndefined();
    const viaHeader = await request(gw.app).post('/mcp').set('x-api-key', BETA_KEY).send(rpc('ping'));
    expect(viaHeader.status).toBe(200);
    expect((await request(gw.app).get('/.well-known/oauth-protected-resource')).status).toBe(404);
    expect((await request(gw.app).get('/mcp').set('x-api-key', BETA_KEY)).status).toBe(405);
  });

  it('writes a usage row per tool call, shown by /v1/usage with the server and the tool', async () => {
    const res = await post({ ...rpc('tools/call'), params: { _meta: meta, name: 'sim__echo', arguments: { text: 'counted' } } });
    expect(res.status).toBe(200);
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
    expect(row).toMatchObject({ model: 'sim__echo', provider: 'sim', format: 'mcp', status: 'ok', http_status: 200 });
    const usage = await request(gw.app)
      .get('/v1/usage')
      .set({ Authorization: `Bearer ${BETA_KEY}` });
    expect(JSON.stringify(usage.body)).toContain('sim__echo');
  });
});

describe('GET /admin/mcp/servers', () => {
  it('lists every configured server with its status, behind the admin key', async () => {
    const res = await request(gw.app).get('/admin/mcp/servers').set('Authorization', `Bearer ${ADMIN}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [{ id: 'sim', source: 'file', url: 'builtin:simulator', headers: [], pricePerCall: null, status: 'ok', tools: 3 }],
    });
    expect((await request(gw.app).get('/admin/mcp/servers').set('Authorization', `Bearer ${BETA_KEY}`)).status).toBe(401);
  });
});

describe('the MCP config, checked at load', () => {
  const base = testConfigFile();
  const problem = (over: Record<string, unknown>, variables: Record<string, string> = {}) => {
    try {
      buildConfig('cfg.json', { ...base, ...over }, variables);
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('refuses server ids with __ and ids that collide', () => {
    expect(problem({ mcpServers: [{ id: 'git__hub', url: 'https://mcp.example.com/' }] })).toMatch(/mcpServers: "git__hub" contains "__"/);
    const twice = [
      { id: 'git', url: 'https://a.example.com/' },
      { id: 'Git', url: 'https://b.example.com/' },
    ];
    expect(problem({ mcpServers: twice })).toMatch(/"Git" collides with "git"/);
  });

  it('refuses a private or loopback URL in one line naming it, unless WEBHOOK_ALLOWED_HOSTS admits it', () => {
    const local = { mcpServers: [{ id: 'local', url: 'http://127.0.0.1:7000/mcp' }] };
    const message = problem(local)!;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('mcpServers.0.url: "http://127.0.0.1:7000/mcp"');
    expect(problem(local, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:7000' })).toBeUndefined();
    expect(problem({ mcpServers: [{ id: 'meta', url: 'https://169.254.169.254/' }] })).toMatch(/non-public address/);
  });

  it('reads env: headers and refuses an unset one', () => {
    const servers = [{ id: 'git', url: 'https://mcp.example.com/', headers: { Authorization: 'env:GIT_TOKEN', 'X-Team': 'a' } }];
    expect(problem({ mcpServers: servers })).toMatch(/mcpServers.0.headers.Authorization: environment variable GIT_TOKEN is not set/);
    const cfg = buildConfig('cfg.json', { ...base, mcpServers: servers }, { GIT_TOKEN: 'Bearer t' });
    expect(cfg.mcp.servers[0]!.headers).toEqual({ authorization: 'Bearer t', 'x-team': 'a' });
  });

  it("refuses a header the gateway's MCP client sets itself, or no header name at all, as the admin API does", () => {
    const withHeader = (name: string) => ({ mcpServers: [{ id: 'git', url: 'https://mcp.example.com/', headers: { [name]: 'x' } }] });
    expect(problem(withHeader('Mcp-Session-Id'))).toMatch(
      /mcpServers.0.headers: "Mcp-Session-Id" is set by the gateway's MCP client itself/,
    );
    expect(problem(withHeader('bad name'))).toMatch(/mcpServers.0.headers: "bad name" is not a header name/);
  });

  it('refuses lists naming unknown servers and key lists wider than their group', () => {
    const servers = [{ id: 'git', url: 'https://mcp.example.com/' }];
    const groups = [{ name: 'default', models: ['*'], mcp: ['git__read'] }];
    expect(problem({ mcpServers: servers, keys: [], groups: [{ name: 'default', models: ['*'], mcp: ['nope'] }] })).toMatch(
      /groups.0.mcp.0: "nope" names no configured MCP server/,
    );
    const wide = [{ key: ALPHA_KEY, account: 'a', group: 'default', mcp: ['git'] }];
    expect(problem({ mcpServers: servers, groups, keys: wide })).toMatch(/keys.0.mcp: \["git"\] is wider than group "default" allows/);
    const narrow = [{ key: ALPHA_KEY, account: 'a', group: 'default', mcp: ['git__read'] }];
    expect(problem({ mcpServers: servers, groups, keys: narrow })).toBeUndefined();
  });
});

describe('allow-lists through the admin API', () => {
  const admin = (method: 'post' | 'patch' | 'put', path: string) => request(gw.app)[method](path).set('Authorization', `Bearer ${ADMIN}`);
  const toolsOf = async (key: string) =>
    (await post({ ...rpc('tools/list'), params: { _meta: meta } }, {}, key)).body.result.tools.map((t: { name: string }) => t.name);

  it("changes a group's list as its models, and checks a key's list against it on create and change", async () => {
    const group = await admin('put', '/admin/groups/default').send({
      models: ['sim-chat', 'sim-image'],
      mcp: ['sim__echo', 'sim__get_weather'],
    });
    expect(group.status).toBe(200);
    expect(await toolsOf(ALPHA_KEY)).toEqual(['sim__echo', 'sim__get_weather']);

    const wide = await admin('post', '/admin/keys').send({ account: 'alpha', group: 'default', mcp: ['sim'] });
    expect(wide.status).toBe(400);
    expect(wide.body.error).toMatchObject({ code: 'invalid_mcp', param: 'mcp' });
    expect((await admin('post', '/admin/keys').send({ account: 'alpha', group: 'default', mcp: ['nope__x'] })).body.error.code).toBe(
      'invalid_mcp',
    );

    const made = await admin('post', '/admin/keys').send({ account: 'alpha', group: 'default', mcp: ['sim__echo'] });
    expect(made.status).toBe(201);
    expect(made.body.mcp).toEqual(['sim__echo']);
    expect(await toolsOf(made.body.key)).toEqual(['sim__echo']);
    const call = await post(
      { ...rpc('tools/call'), params: { _meta: meta, name: 'sim__get_weather', arguments: { city: 'Oslo' } } },
      {},
      made.body.key,
    );
    expect(call.body.error).toMatchObject({ code: -32602 });

    const changed = await admin('patch', `/admin/keys/${made.body.id}`).send({ mcp: null });
    expect(changed.body.mcp).toBeNull();
    expect(await toolsOf(made.body.key)).toEqual(['sim__echo', 'sim__get_weather']);
  });

  it("refuses a tool call of a key whose budget is spent, in the call's answer", async () => {
    const spent = await admin('post', '/admin/keys').send({ account: 'beta', group: 'vip', budget: { credit_limit: 0 } });
    expect(spent.status).toBe(201);
    const call = await post(
      { ...rpc('tools/call'), params: { _meta: meta, name: 'sim__echo', arguments: { text: 'x' } } },
      {},
      spent.body.key,
    );
    expect(call.status).toBe(200);
    expect(call.body.error).toMatchObject({ code: -32001, data: { reason: 'quota_exhausted' } });
    expect(await toolsOf(spent.body.key)).toHaveLength(3);
  });
});
