import request from 'supertest';
import { buildConfig } from '../src/config';
import { DEFAULT_CONFIG } from '../src/default-config';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/**
 * The OAuth 2.1 option of POST /mcp (docs/mcp.md, "OAuth"): with `mcpOAuth` the gateway publishes RFC 9728 metadata
 * naming its own MCP endpoint and answers a refused request with a `resource_metadata` challenge, while its sk- keys
 * keep working; without it (the zero-config start) nothing is published.
 */
const AUTH = 'https://auth.example.com';
const UPSTREAM = 'https://mcp.upstream.example.com/mcp';
const CHALLENGE = 'Bearer resource_metadata="https://gateway.test/.well-known/oauth-protected-resource/mcp"';
const ADMIN = 'admin-mcp-oauth-key';
const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };

describe('MCP OAuth on (mcpOAuth)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    const config = testConfigFile({
      mcpServers: [...(DEFAULT_CONFIG.mcpServers ?? []), { id: 'far', url: UPSTREAM }],
      mcpOAuth: { authorizationServers: [AUTH] },
    });
    gw = await startTestGateway({ listen: false, config, env: { adminKey: ADMIN } });
  });
  afterAll(async () => gw?.stop());

  it("publishes protected-resource metadata naming the gateway's own MCP endpoint, never an upstream's", async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await request(gw.app).get(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        resource: 'https://gateway.test/mcp',
        authorization_servers: [AUTH],
        bearer_methods_supported: ['header'],
        resource_name: 'Gateway MCP endpoint',
      });
      expect(JSON.stringify(res.body)).not.toContain('upstream.example.com');
    }
  });

  it('answers a request without a credential, or with a bearer that is not a key, 401 with the challenge', async () => {
    const none = await request(gw.app).post('/mcp').send(ping);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe(CHALLENGE);
    expect(none.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
    const jwt = await request(gw.app).post('/mcp/').set('Authorization', 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln').send(ping);
    expect(jwt.status).toBe(401);
    expect(jwt.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it('keeps serving sk- keys, and challenges on no other route', async () => {
    const ok = await request(gw.app).post('/mcp').set('Authorization', `Bearer ${BETA_KEY}`).send(ping);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toEqual({});
    expect(ok.headers['www-authenticate']).toBeUndefined();
    const chat = await request(gw.app).post('/v1/chat/completions').send({ model: 'sim-chat', messages: [] });
    expect(chat.status).toBe(401);
    expect(chat.headers['www-authenticate']).toBeUndefined();
  });

  it('stays on across a catalogue reload', async () => {
    const put = await request(gw.app)
      .put('/admin/groups/vip')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ models: ['*'], mcp: ['sim'] });
    expect(put.status).toBe(200);
    expect((await request(gw.app).get('/.well-known/oauth-protected-resource/mcp')).body.resource).toBe('https://gateway.test/mcp');
    expect((await request(gw.app).post('/mcp').send(ping)).headers['www-authenticate']).toBe(CHALLENGE);
  });

  it('refuses an authorization server that is not an https issuer URL, naming the field', () => {
    const bad = (url: string) => () => buildConfig('cfg.json', testConfigFile({ mcpOAuth: { authorizationServers: [url] } }));
    expect(bad('http://auth.example.com')).toThrow(/mcpOAuth.authorizationServers.0: "http:\/\/auth.example.com" is not an issuer URL/);
    expect(bad('https://auth.example.com/?tenant=a')).toThrow(/mcpOAuth.authorizationServers.0/);
    expect(() => buildConfig('cfg.json', testConfigFile({ mcpOAuth: { authorizationServers: [] } }))).toThrow(/mcpOAuth/);
  });
});

describe('MCP OAuth off (the zero-config start)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ listen: false, config: DEFAULT_CONFIG });
  });
  afterAll(async () => gw?.stop());

  it('publishes nothing and challenges with no resource_metadata', async () => {
    expect(DEFAULT_CONFIG.mcpOAuth).toBeUndefined();
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])
      expect((await request(gw.app).get(path)).status).toBe(404);
    const none = await request(gw.app).post('/mcp').send(ping);
    expect(none.status).toBe(401);
    expect(String(none.headers['www-authenticate'] ?? '')).not.toContain('resource_metadata');
  });
});
