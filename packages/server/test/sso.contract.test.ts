import { testConfigFile, startTestGateway, type TestGateway } from './support/test-gateway';
import { CookieBrowser, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from './support/oidc-provider';

/**
 * Dashboard single sign-on against a real OpenID provider on loopback (oidc-provider), driven without a browser:
 * the session cookie's attributes, the role mapping of the config file, CSRF refusal of state-changing calls made
 * with the session, audit records authored by the person, refused sign-ins as pages, and sign-out. The browser
 * walk-through is test/dashboard/sso.browser.test.ts.
 */
const ADMIN = 'sk-admin-sso-contract-01';
type ErrorBody = { error: { code: string } };
const USERS = { ada: ['gw-platform'], alice: ['alpha-admins', 'staff'], mel: ['alpha-members'], nobody: ['staff'] };

describe('dashboard single sign-on', () => {
  let op: TestOidcProvider;
  let gw: TestGateway;

  beforeAll(async () => {
    op = await startOidcProvider(USERS);
    gw = await startTestGateway({
      config: testConfigFile({
        sso: {
          roles: {
            'gw-platform': { platformAdmin: true },
            'alpha-admins': { account: 'alpha', role: 'admin' },
            'alpha-members': { account: 'alpha', role: 'member' },
          },
        },
      }),
      env: {
        adminKey: ADMIN,
        publicBaseUrlDerived: true,
        trustProxy: true,
        oidc: { issuer: op.issuer, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, roleClaim: 'groups', scopes: 'openid' },
      },
    });
    await op.register(`${gw.url}/sso/callback`);
  }, 120_000);
  afterAll(async () => {
    await gw?.stop();
    await op?.close();
  });

  /** A browser signed in as `username`; its session's CSRF token. */
  const signIn = async (username: string) => {
    const browser = new CookieBrowser();
    const landed = await browser.visit(`${gw.url}/sso/login`, { username, stopAt: `${gw.url}/sso/callback` });
    const session = await browser.fetch(`${gw.url}/sso/session`);
    const body = session.status === 200 ? ((await session.json()) as { csrf_token: string }) : null;
    return { browser, landed, csrf: body?.csrf_token ?? '' };
  };
  const auditRows = async (query: string) =>
    (
      (await (await fetch(`${gw.url}/admin/audit${query}`, { headers: { Authorization: `Bearer ${ADMIN}` } })).json()) as {
        data: unknown[];
      }
    ).data;

  it('tells the sign-in page that SSO is on', async () => {
    expect(await (await fetch(`${gw.url}/sso/config`)).json()).toEqual({ enabled: true });
  });

  it('sets an HttpOnly, SameSite=Lax session cookie (Secure over https), never the token in a URL', async () => {
    const browser = new CookieBrowser();
    const start = await browser.fetch(`${gw.url}/sso/login`);
    expect(start.status).toBe(302);
    const providerUrl = new URL(start.headers.get('location')!);
    expect(providerUrl.origin).toBe(op.issuer);
    expect(providerUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(providerUrl.searchParams.get('redirect_uri')).toBe(`${gw.url}/sso/callback`);

    const callback = await browser.visit(providerUrl.href, { username: 'ada', stopAt: `${gw.url}/sso/callback` });
    expect(callback?.status).toBe(302);
    expect(callback!.headers.get('location')).toBe('/dashboard/');
    const cookie = callback!.headers.getSetCookie().find((c) => c.startsWith('gw_session='))!;
    expect(cookie).toMatch(/; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toContain('Secure');

    // over https (a trusted proxy says so) the cookie is Secure as well
    const https = await fetch(`${gw.url}/sso/logout`, { method: 'POST', headers: { 'X-Forwarded-Proto': 'https' } });
    expect(https.headers.getSetCookie()[0]).toMatch(/^gw_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax; Secure$/);
  });

  it('maps a platform admin to the admin API; changes need the CSRF token and are audited as the person', async () => {
    const { browser, csrf } = await signIn('ada');
    const session = await (await browser.fetch(`${gw.url}/sso/session`)).json();
    expect(session).toMatchObject({ subject: 'ada', platform_admin: true, account: null });
    expect((await browser.fetch(`${gw.url}/admin/accounts`)).status).toBe(200);
    // /metrics asks the admin API's gate: the platform admin's session reads them, an account admin's does not
    expect((await browser.fetch(`${gw.url}/metrics`)).status).toBe(200);

    const create = (headers: Record<string, string>, id: string) =>
      browser.fetch(`${gw.url}/admin/accounts`, 'POST', JSON.stringify({ id }), { 'content-type': 'application/json', ...headers });
    const noToken = await create({}, 'sso-no-token');
    expect(noToken.status).toBe(403);
    expect(((await noToken.json()) as ErrorBody).error.code).toBe('csrf_refused');
    const wrongToken = await create({ 'x-csrf-token': 'x'.repeat(43) }, 'sso-wrong-token');
    expect(wrongToken.status).toBe(403);
    const foreign = await create({ 'x-csrf-token': csrf, origin: 'https://evil.example' }, 'sso-foreign');
    expect(foreign.status).toBe(403);
    expect(await auditRows('?target=account:sso-no-token')).toEqual([]);

    const made = await create({ 'x-csrf-token': csrf, origin: gw.url }, 'sso-made');
    expect(made.status).toBe(201);
    expect(await auditRows('?target=account:sso-made')).toEqual([
      expect.objectContaining({ action: 'account.create', actor: { type: 'sso', id: 'ada' } }),
    ]);
    // a settings change (a group of the catalogue) too
    const group = await browser.fetch(`${gw.url}/admin/groups/sso-group`, 'PUT', JSON.stringify({ models: ['sim-chat'] }), {
      'content-type': 'application/json',
      'x-csrf-token': csrf,
    });
    expect(group.status).toBe(200);
    expect(await auditRows('?target=group:sso-group')).toEqual([
      expect.objectContaining({ action: 'group.create', actor: { type: 'sso', id: 'ada' } }),
    ]);
    // the admin session is not an account: model calls and account routes still need a key
    expect((await browser.fetch(`${gw.url}/v1/keys`)).status).toBe(401);
  });

  it('maps an account admin and a member to their account with their role', async () => {
    const admin = await signIn('alice');
    expect(await (await admin.browser.fetch(`${gw.url}/sso/session`)).json()).toMatchObject({
      account: 'alpha',
      role: 'admin',
      platform_admin: false,
    });
    const made = await admin.browser.fetch(`${gw.url}/v1/keys`, 'POST', JSON.stringify({ name: 'made by alice' }), {
      'content-type': 'application/json',
      'x-csrf-token': admin.csrf,
    });
    expect(made.status).toBe(201);
    const key = (await made.json()) as { id: string; account: string };
    expect(key.account).toBe('alpha');
    expect(await auditRows(`?target=key:${key.id}`)).toEqual([
      expect.objectContaining({ action: 'key.create', actor: { type: 'sso', id: 'alice' } }),
    ]);
    expect((await admin.browser.fetch(`${gw.url}/admin/accounts`)).status).toBe(401);
    expect((await admin.browser.fetch(`${gw.url}/metrics`)).status).toBe(401);

    const member = await signIn('mel');
    expect(await (await member.browser.fetch(`${gw.url}/sso/session`)).json()).toMatchObject({ account: 'alpha', role: 'member' });
    const refused = await member.browser.fetch(`${gw.url}/v1/keys`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ErrorBody).error.code).toBe('forbidden_role');
  });

  it("refuses a person without a role, a foreign state and the provider's refusal with a page, never a 500", async () => {
    const nobody = await signIn('nobody');
    expect(nobody.landed.status).toBe(403);
    expect(await nobody.landed.text()).toContain('no role on this gateway is mapped to you');
    expect(nobody.browser.cookie(gw.url, 'gw_session')).toBeUndefined();

    const stale = await fetch(`${gw.url}/sso/callback?code=abc&state=made-up`);
    expect(stale.status).toBe(400);
    expect(await stale.text()).toContain('invalid_state');

    const cancelled = await new CookieBrowser().visit(`${gw.url}/sso/login`, { cancel: true });
    expect(cancelled.status).toBe(403);
    expect(await cancelled.text()).toContain('access_denied');
  });

  it('signs out: the session is deleted, so its cookie no longer works', async () => {
    const { browser, csrf } = await signIn('ada');
    const token = browser.cookie(gw.url, 'gw_session')!;
    expect((await browser.fetch(`${gw.url}/sso/logout`, 'POST')).status).toBe(403); // without the CSRF token
    const out = await browser.fetch(`${gw.url}/sso/logout`, 'POST', undefined, { 'x-csrf-token': csrf });
    expect(out.status).toBe(200);
    const replay = { headers: { cookie: `gw_session=${token}` } };
    expect((await fetch(`${gw.url}/admin/accounts`, replay)).status).toBe(401);
    expect((await fetch(`${gw.url}/sso/session`, replay)).status).toBe(401);
  });
});
