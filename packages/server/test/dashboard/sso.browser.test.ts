import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ALPHA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { describeWithBrowser, ensureDashboardBuilt, launchBrowser, screenshot } from './browser';

/**
 * Single sign-on in Debian's Chromium against a real OpenID provider on loopback (oidc-provider): the sign-in page
 * offers SSO, the provider's login leads back signed in with the mapped role (a platform admin sees the admin
 * navigation, a member does not), a person without a role gets the refusal page, and signing out ends the session
 * (its cookie no longer opens anything).
 */
const USERS = { ada: ['gw-platform'], mel: ['alpha-members'], nobody: ['staff'] };
const WAIT = { timeout: 60_000 };

describeWithBrowser('single sign-on in a browser', () => {
  jest.setTimeout(180_000);
  let op: TestOidcProvider;
  let gw: TestGateway;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const nav = () => page.getByRole('navigation', { name: 'Main' });
  /** From the dashboard's sign-in page through the provider's login form as `username`. */
  const signInWithSso = async (username: string) => {
    await page.goto(`${gw.url}/dashboard/`);
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.getByLabel('Username').fill(username);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  beforeAll(async () => {
    ensureDashboardBuilt();
    op = await startOidcProvider(USERS);
    gw = await startTestGateway({
      config: testConfigFile({
        sso: { roles: { 'gw-platform': { platformAdmin: true }, 'alpha-members': { account: 'alpha', role: 'member' } } },
      }),
      env: {
        adminKey: 'sk-admin-sso-browser-01',
        publicBaseUrlDerived: true,
        oidc: { issuer: op.issuer, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, roleClaim: 'groups', scopes: 'openid' },
      },
    });
    await op.register(`${gw.url}/sso/callback`);
    browser = await launchBrowser();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
    await op?.close();
  });

  it('a platform admin signs in with SSO, sees the admin navigation and the accounts, and signs out', async () => {
    await page.goto(`${gw.url}/dashboard/`);
    await page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
    await screenshot(page, 'sso-sign-in');

    await signInWithSso('ada');
    await nav().waitFor(WAIT);
    await page.getByText('Signed in as ada').waitFor();
    await nav().getByRole('link', { name: 'Accounts', exact: true }).click();
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'alpha', exact: true }) })
      .first()
      .waitFor(WAIT);
    await screenshot(page, 'sso-signed-in');

    // the session is a cookie no script can read; the page holds only its CSRF token
    const [cookie] = (await context.cookies(gw.url)).filter((c) => c.name === 'gw_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await page.evaluate<string>('document.cookie')).not.toContain(cookie!.value);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
    expect((await context.cookies(gw.url)).filter((c) => c.name === 'gw_session')).toEqual([]);
    const replay = await fetch(`${gw.url}/admin/accounts`, { headers: { cookie: `gw_session=${cookie!.value}` } });
    expect(replay.status).toBe(401);
  });

  it('a member signs in with the role of the mapping: no admin navigation', async () => {
    await signInWithSso('mel');
    await nav().getByRole('link', { name: 'Usage', exact: true }).waitFor(WAIT);
    await page.getByText('Signed in as mel').waitFor();
    expect(await nav().getByRole('link', { name: 'Accounts', exact: true }).count()).toBe(0);
    expect(await nav().getByRole('link', { name: 'Keys', exact: true }).count()).toBe(0);

    // the session lists the account's batches itself, without choosing a key
    const made = await fetch(`${gw.url}/v1/messages/batches`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ALPHA_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        requests: [{ custom_id: 'a', params: { model: 'sim-chat', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] } }],
      }),
    });
    expect(made.status).toBe(200);
    const { id } = (await made.json()) as { id: string };
    await nav().getByRole('link', { name: 'Batches', exact: true }).click();
    await page.getByRole('table', { name: 'Batches' }).getByText(id).waitFor(WAIT);
  });

  it('a person without a role gets the refusal page, and no session', async () => {
    await signInWithSso('nobody');
    await page.getByRole('heading', { name: 'Sign-in refused' }).waitFor(WAIT);
    await page.getByText('no role on this gateway is mapped to you').waitFor();
    expect((await context.cookies(gw.url)).filter((c) => c.name === 'gw_session')).toEqual([]);
    await page.getByRole('link', { name: 'Back to the sign-in page' }).click();
    await page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
  });
});
