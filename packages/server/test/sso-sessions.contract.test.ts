import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GATEWAY_ROUTE_DOCS } from '../src/openapi';
import { ALPHA_KEY, testConfigFile, startTestGateway, type TestGateway } from './support/test-gateway';
import { CookieBrowser, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from './support/oidc-provider';

/**
 * What a dashboard session may do and for how long (issue 34): it calls no model in any format, it follows the
 * config file's role mapping at each request, a platform admin ends another person's sessions, starting sign-ins is
 * rate-limited per client address, and a mangled cookie is no session. Against a real OpenID provider on loopback.
 */
const ADMIN = 'sk-admin-sso-sessions-01';
type ErrorBody = { error: { code: string } };
const USERS = { ada: ['gw-platform'], alice: ['alpha-admins'], mel: ['alpha-members'], max: ['alpha-members'] };
const ROLES = {
  'gw-platform': { platformAdmin: true },
  'alpha-admins': { account: 'alpha', role: 'admin' },
  'alpha-members': { account: 'alpha', role: 'member' },
} as const;

describe('dashboard sessions: reach and lifetime', () => {
  let op: TestOidcProvider;
  let gw: TestGateway;
  // a store on disk: a test restarts the gateway with another config file, as an operator would
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-sso-sessions-'));
  const start = (roles: Record<string, unknown>) =>
    startTestGateway({
      config: testConfigFile({ sso: { roles } } as Parameters<typeof testConfigFile>[0]),
      env: {
        adminKey: ADMIN,
        dataDir,
        inMemoryDatabase: false,
        publicBaseUrlDerived: true,
        trustProxy: true,
        oidc: { issuer: op.issuer, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, roleClaim: 'groups', scopes: 'openid' },
      },
    });

  beforeAll(async () => {
    op = await startOidcProvider(USERS);
    gw = await start(ROLES);
    await op.register(`${gw.url}/sso/callback`);
  }, 120_000);
  afterAll(async () => {
    await gw?.stop();
    await op?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const signIn = async (username: string) => {
    const browser = new CookieBrowser();
    await browser.visit(`${gw.url}/sso/login`, { username, stopAt: `${gw.url}/sso/callback` });
    const session = await browser.fetch(`${gw.url}/sso/session`);
    expect(session.status).toBe(200);
    const { csrf_token: csrf } = (await session.json()) as { csrf_token: string };
    const token = browser.cookie(gw.url, 'gw_session')!;
    /** a call with the session cookie (and its CSRF token, from the gateway's own origin) and no key */
    const call = (method: string, path: string, body?: object) =>
      fetch(`${gw.url}${path}`, {
        method,
        headers: {
          cookie: `gw_session=${token}`,
          'x-csrf-token': csrf,
          origin: gw.url,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body && JSON.stringify(body),
      });
    return { browser, csrf, token, call };
  };
  const code = async (res: Response) => ((await res.json()) as ErrorBody).error.code;

  it('a session calls no model in any format: Gemini routes under /v1/models refuse it as they refuse no key', async () => {
    const alice = await signIn('alice'); // an account admin: the strongest account session
    const gemini = { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] };
    for (const [path, body] of [
      ['/v1/models/sim-chat:generateContent', gemini],
      ['/v1/models/sim-chat:streamGenerateContent?alt=sse', gemini],
      ['/v1/models/sim-chat:countTokens', gemini],
      ['/v1/models/sim-video-2.0:predictLongRunning', { instances: [{ prompt: 'a red kite over the sea' }] }],
      ['/v1beta/models/sim-chat:generateContent', gemini],
      ['/v1/chat/completions', { model: 'sim-chat', messages: [{ role: 'user', content: 'hello' }] }],
      ['/v1/videos', { model: 'sim-video-2.0', prompt: 'a red kite over the sea' }],
      ['/v1/contents/generations/tasks', { model: 'sim-video-2.0', content: [{ type: 'text', text: 'a red kite' }] }],
      ['/v1/messages/batches', { requests: [{ custom_id: 'a', params: { model: 'sim-chat', max_tokens: 8, messages: [] } }] }],
    ] as const) {
      const res = await alice.call('POST', path, body);
      expect([path, res.status]).toEqual([path, 401]);
    }
    // what it may do still works: the catalogue, usage, the account's tasks, its keys
    for (const path of [
      '/v1/models',
      '/v1beta/models',
      '/v1/usage',
      '/v1/videos',
      '/v1/contents/generations/tasks',
      '/v1/keys',
      '/v1/batches',
      '/v1/messages/batches',
    ])
      expect([path, (await alice.call('GET', path)).status]).toEqual([path, 200]);
    // and a key on the same model route still calls the model
    const keyed = await fetch(`${gw.url}/v1/models/sim-chat:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': ALPHA_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(gemini),
    });
    expect(keyed.status).toBe(200);
  });

  it('the routes a session may call are declared, and none of them calls a model', () => {
    const accepting = GATEWAY_ROUTE_DOCS.filter((r) => r.auth.kind === 'api-key' && r.auth.session).map(
      (r) => `${r.method.toUpperCase()} ${r.path}`,
    );
    expect(accepting.sort()).toEqual(
      [
        'GET /v1beta/models',
        'GET /v1beta/models/{model}',
        'GET /v1/models',
        'GET /v1/models/{id}',
        'GET /v1/videos',
        'GET /v1/videos/{id}',
        'GET /v1/videos/{id}/events',
        'GET /v1/videos/{id}/content',
        'GET /v1/contents/generations/tasks',
        'GET /v1/contents/generations/tasks/{id}',
        'GET /v1/contents/generations/tasks/{id}/events',
        'GET /v1/usage',
        // the account's files (batch output files among them): read only
        'GET /v1/files',
        'GET /v1/files/{id}',
        'GET /v1/files/{id}/content',
        // the account's batches (the dashboard's Batches page): the lists and a message batch's results
        'GET /v1/batches',
        'GET /v1/messages/batches',
        'GET /v1/messages/batches/{id}/results',
        'GET /v1/webhook_endpoints',
        'POST /v1/webhook_endpoints',
        'GET /v1/webhook_endpoints/{id}',
        'PATCH /v1/webhook_endpoints/{id}',
        'DELETE /v1/webhook_endpoints/{id}',
        'GET /v1/webhook_endpoints/{id}/deliveries',
        'GET /v1/keys',
        'POST /v1/keys',
        'PATCH /v1/keys/{id}',
        'POST /v1/keys/{id}/rotate',
        'DELETE /v1/keys/{id}',
        'GET /v1/audit',
      ].sort(),
    );
  });

  it('a mangled gw_session cookie is no session: the usual 401, never a 500', async () => {
    const mangled = { cookie: 'gw_session=%E0%A4%A; other=1' };
    expect((await fetch(`${gw.url}/v1/models`, { headers: mangled })).status).toBe(401);
    expect((await fetch(`${gw.url}/v1/models`, { headers: { ...mangled, authorization: `Bearer ${ALPHA_KEY}` } })).status).toBe(200);
    const session = await fetch(`${gw.url}/sso/session`, { headers: mangled });
    expect(session.status).toBe(401);
    expect(await code(session)).toBe('no_session');
    expect((await fetch(`${gw.url}/admin/accounts`, { headers: mangled })).status).toBe(401);
    expect((await fetch(`${gw.url}/sso/logout`, { method: 'POST', headers: mangled })).status).toBe(200);
    expect((await fetch(`${gw.url}/healthz`, { headers: mangled })).status).toBe(200);
  });

  it("a platform admin ends another person's sessions at once; the change is audited", async () => {
    const [mel1, mel2, max, ada, alice] = await Promise.all([signIn('mel'), signIn('mel'), signIn('max'), signIn('ada'), signIn('alice')]);
    expect((await mel1.call('GET', '/v1/usage')).status).toBe(200);

    // only a platform admin: an account admin's session and no credential are refused
    expect((await alice.call('DELETE', '/admin/sso/sessions?subject=mel')).status).toBe(401);
    expect((await fetch(`${gw.url}/admin/sso/sessions?subject=mel`, { method: 'DELETE' })).status).toBe(401);
    const noSubject = await ada.call('DELETE', '/admin/sso/sessions');
    expect(noSubject.status).toBe(400);
    expect(await code(noSubject)).toBe('invalid_subject');
    // a state-changing call: the session's CSRF token is needed
    const forged = await fetch(`${gw.url}/admin/sso/sessions?subject=mel`, {
      method: 'DELETE',
      headers: { cookie: `gw_session=${ada.token}` },
    });
    expect(forged.status).toBe(403);

    const ended = await ada.call('DELETE', '/admin/sso/sessions?subject=mel');
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ subject: 'mel', ended: 2 });
    for (const mel of [mel1, mel2]) {
      expect((await mel.call('GET', '/v1/usage')).status).toBe(401);
      expect((await mel.browser.fetch(`${gw.url}/sso/session`)).status).toBe(401);
    }
    expect((await max.call('GET', '/v1/usage')).status).toBe(200); // another person's session stays

    // the admin key may do it too; nothing left to end writes no record
    const again = await fetch(`${gw.url}/admin/sso/sessions?subject=mel`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(await again.json()).toEqual({ subject: 'mel', ended: 0 });
    const audit = (await (
      await fetch(`${gw.url}/admin/audit?action=sso_session.end`, { headers: { authorization: `Bearer ${ADMIN}` } })
    ).json()) as { data: unknown[] };
    expect(audit.data).toEqual([
      expect.objectContaining({
        actor: { type: 'sso', id: 'ada' },
        target: { type: 'sso_subject', id: 'mel' },
        before: { sessions: 2 },
        after: { sessions: 0 },
      }),
    ]);
  });

  it('a session follows the role mapping: a removed mapping ends it, a changed role applies at the next request', async () => {
    const [alice, mel, ada] = await Promise.all([signIn('alice'), signIn('mel'), signIn('ada')]);
    expect((await alice.call('GET', '/v1/keys')).status).toBe(200);

    // the operator demotes alpha's admins to members and unmaps alpha's members, and restarts with that file
    await gw.stop();
    gw = await start({ 'gw-platform': ROLES['gw-platform'], 'alpha-admins': { account: 'alpha', role: 'member' } });

    const demoted = await alice.call('GET', '/v1/keys');
    expect(demoted.status).toBe(403);
    expect(await code(demoted)).toBe('forbidden_role');
    expect((await alice.call('GET', '/v1/usage')).status).toBe(200);
    const who = await fetch(`${gw.url}/sso/session`, { headers: { cookie: `gw_session=${alice.token}` } });
    expect(await who.json()).toMatchObject({ subject: 'alice', account: 'alpha', role: 'member' });

    expect((await mel.call('GET', '/v1/usage')).status).toBe(401);
    expect((await fetch(`${gw.url}/sso/session`, { headers: { cookie: `gw_session=${mel.token}` } })).status).toBe(401);
    expect((await ada.call('GET', '/admin/accounts')).status).toBe(200);
  }, 120_000);

  it('starting sign-ins is rate-limited per client address (the one TRUST_PROXY names)', async () => {
    const login = (address: string) => fetch(`${gw.url}/sso/login`, { redirect: 'manual', headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 20; i++) expect((await login('203.0.113.7')).status).toBe(302);
    const refused = await login('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(await code(refused)).toBe('sign_in_rate_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // another address is not held back by it
    expect((await login('203.0.113.8')).status).toBe(302);
  });
});
