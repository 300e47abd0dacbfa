import type { Locator, Page } from 'playwright-core';
import { BETA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway } from '../support/test-gateway';
import { describeWithBrowser, imageDecoded, screenshot, mediaDuration } from './browser';
import { useDashboardSession } from './dashboard-session';

/**
 * The dashboard that manages (issue 26), in Debian's Chromium against a started gateway: the platform admin creates an
 * account, renames it, sets its quota and gives it a key; an account admin creates, rotates and revokes a key and sees each state
 * (and the change in its audit slice); a member sees no admin navigation; Usage totals a time range by model; the
 * platform admin sees every account's tasks with their posters and videos.
 */
const ADMIN = 'sk-admin-dashboard-mgmt-01';
const WAIT = { timeout: 90_000 };

const priced = () =>
  withPricing(testConfigFile(), {
    'sim-chat': { inputPerMillionTokens: 10_000, outputPerMillionTokens: 20_000 },
    'sim-image': { perImage: 0.04 },
    'sim-video-2.0': { perVideoSecond: { '480p': 0.02, '720p': 0.05, '1080p': 0.1, '4k': 0.3 } },
  });

describeWithBrowser('the dashboard manages', () => {
  jest.setTimeout(240_000);
  let gw: TestGateway;
  let page: Page;
  let errors: string[];

  const api = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(gw.url + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const newKey = async (body: object) => {
    const res = await api(ADMIN, 'POST', '/admin/keys', { account: 'alpha', group: 'default', ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string };
  };
  const chat = (key: string) =>
    fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'hello there' }] }),
    }).then((r) => r.status);
  const navLabels = async () => main().getByRole('link').allTextContents();
  const rowOf = (table: Locator, text: string) => table.getByRole('row').filter({ hasText: text });

  const ui = useDashboardSession(async () => {
    gw = await startTestGateway({ config: priced(), env: { adminKey: ADMIN, keyCacheTtlMs: 0 } });
    await gw.startBackground(); // the task worker: videos render
    return gw;
  });
  const { main, nav, signIn } = ui;
  beforeEach(() => {
    ({ page, errors } = ui);
  });

  it('platform admin: creates an account, renames it, sets its quota, gives it a key, and reads the changes in the audit log', async () => {
    await signIn(ADMIN);
    expect(await navLabels()).toEqual([
      'Overview',
      'Accounts',
      'Catalogue',
      'MCP servers',
      'Keys',
      'Usage',
      'Tasks',
      'Batches',
      'Models',
      'Audit',
      'Playground',
    ]);

    await nav('Accounts');
    await page.getByRole('button', { name: 'New account' }).click();
    await page.getByLabel('Account id').fill('gamma');
    await page.getByLabel('Account name').fill('Gamma team');
    await page.getByRole('button', { name: 'Create account' }).click();
    const gamma = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'gamma', exact: true }) });
    await gamma.getByText('Gamma team').waitFor();
    await gamma.getByRole('button', { name: 'Edit quota' }).click();
    await page.getByLabel('Credit limit (empty: unlimited)').fill('500');
    await page.getByRole('button', { name: 'Save quota' }).click();
    await gamma.getByText('/ 500.00').waitFor();
    await gamma.getByRole('button', { name: 'Edit name' }).click();
    await gamma.getByLabel('New name (empty: the id)').fill('Gamma platform team');
    await gamma.getByRole('button', { name: 'Save name' }).click();
    await gamma.getByRole('cell', { name: 'Gamma platform team', exact: true }).waitFor();
    expect((await api(ADMIN, 'GET', '/admin/accounts/gamma')).body.name).toBe('Gamma platform team');
    await screenshot(page, 'accounts-manage');

    await nav('Keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('gamma admin');
    await page.getByLabel('Account', { exact: true }).fill('gamma');
    await page.getByLabel('Group', { exact: true }).fill('default');
    await page.getByLabel('Role').selectOption('admin');
    await page.getByLabel('Requests per minute').fill('120');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const secret = (await page.getByLabel('New key').textContent())!.trim();
    const row = rowOf(page.getByRole('table', { name: 'Keys' }), 'gamma admin');
    await row.getByText('120 rpm').waitFor();
    expect(await row.getAttribute('data-state')).toBe('active');
    expect((await api(secret, 'GET', '/v1/me')).body).toMatchObject({ account: 'gamma', role: 'admin' });
    await screenshot(page, 'keys-create');

    // the changes went through the admin API, so they are audited like any API call
    await nav('Audit');
    const log = page.getByRole('table', { name: 'Audit log' });
    await rowOf(log, 'account.create').filter({ hasText: 'account:gamma' }).waitFor();
    await rowOf(log, 'quota.update').filter({ hasText: 'quota:gamma' }).waitFor();
    await rowOf(log, 'account.update').filter({ hasText: 'account:gamma' }).waitFor();
    await rowOf(log, 'key.create').filter({ hasText: 'admin_key:admin' }).first().waitFor();
    await page.getByLabel('Action').fill('account.create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // only account.create rows remain: gamma's, and those start-up wrote for the accounts it created
    await page.waitForFunction(() => {
      const rows = [...(globalThis as any).document.querySelectorAll('[aria-label="Audit log"] tbody tr')] as { textContent: string }[];
      return rows.length > 0 && rows.every((r) => r.textContent.includes('account.create'));
    });
    await rowOf(log, 'account.create').filter({ hasText: 'account:gamma' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    let csv = '';
    for await (const chunk of await download.createReadStream()) csv += chunk.toString();
    expect(csv.split('\r\n')[0]).toMatch(/^id,at,actor_type,actor_id,action,target_type,target_id/);
    expect(csv).toContain('account.create');
    await screenshot(page, 'audit');

    await nav('Catalogue');
    await page.getByRole('table', { name: 'Catalogue providers' }).getByRole('cell', { name: 'sim', exact: true }).waitFor();
    await screenshot(page, 'catalogue');
    await nav('Models');
    // a video price is a price per second by resolution, not an object's text
    await page.getByText('720p: 0.05 credits / second').waitFor();
    expect(await page.getByText('[object Object]').count()).toBe(0);
    await screenshot(page, 'models-prices');
    expect(errors).toEqual([]);
  });

  it("platform admin: sees another account's finished task with its poster, and plays its video", async () => {
    const created = await api(BETA_KEY, 'POST', '/v1/videos', { model: 'sim-video-2.0', prompt: 'a paper boat', seconds: '4' });
    expect(created.status).toBe(200);
    const id = String(created.body.id);
    await signIn(ADMIN);
    await nav('Tasks');
    const row = rowOf(page.getByRole('table', { name: 'Video tasks' }), id);
    // the list follows the task while it renders, then shows its poster
    await row.getByRole('cell', { name: 'succeeded', exact: true }).waitFor(WAIT);
    expect(await row.getByRole('cell', { name: 'beta', exact: true }).count()).toBe(1);
    const poster = row.getByRole('img', { name: `Poster of ${id}` });
    await poster.waitFor(WAIT);
    await page.waitForFunction(() =>
      Array.from((globalThis as any).document.images as Array<{ complete: boolean; naturalWidth: number; alt: string }>).some(
        (i) => i.alt.startsWith('Poster of') && i.complete && i.naturalWidth > 0,
      ),
    );
    expect(await imageDecoded(poster)).toBe(true);
    // the account filter: alpha's tasks do not include beta's
    await page.getByLabel('Account', { exact: true }).selectOption('alpha');
    await page.getByText('0 task(s) on this page').waitFor(WAIT);
    await page.getByLabel('Account', { exact: true }).selectOption('beta');
    await row.waitFor(WAIT);
    await screenshot(page, 'platform-tasks');

    await row.getByRole('link', { name: id }).click();
    await page.getByTestId('task-account').filter({ hasText: 'beta' }).waitFor(WAIT);
    const video = page.locator('video');
    await video.waitFor(WAIT);
    const duration = await mediaDuration(video);
    expect(Math.abs(duration - 4)).toBeLessThan(0.1);
    // read only: no Cancel or Delete for the platform admin
    expect(await page.getByRole('button', { name: /Cancel|Delete/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('account admin: creates, rotates (the old secret works for the grace time) and revokes a key, sees each state and the audit slice', async () => {
    const admin = await newKey({ name: 'alpha admin', role: 'admin' });
    const expired = await newKey({ name: 'old runner' });
    expect((await api(ADMIN, 'PATCH', `/admin/keys/${expired.id}`, { expires_at: '2020-01-01T00:00:00Z' })).status).toBe(200);
    await signIn(admin.key);
    expect(await navLabels()).toEqual(['Overview', 'Keys', 'Webhooks', 'Usage', 'Tasks', 'Batches', 'Models', 'Audit', 'Playground']);

    await nav('Keys');
    const keys = page.getByRole('table', { name: 'Keys' });
    expect(await rowOf(keys, 'old runner').getAttribute('data-state')).toBe('expired');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ci runner');
    await page.getByLabel('Models (comma-separated, empty: the whole group)').fill('sim-chat');
    await page.getByLabel('Budget (credits)').fill('25');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const first = (await page.getByLabel('New key').textContent())!.trim();
    const row = rowOf(keys, 'ci runner');
    await row.getByText('25 (monthly)').waitFor();
    expect(await chat(first)).toBe(200);

    await row.getByRole('button', { name: 'Rotate' }).click();
    await row.getByLabel('Grace seconds').fill('600');
    await row.getByRole('button', { name: 'Confirm rotate' }).click();
    await page.getByLabel('New key').filter({ hasNotText: first }).waitFor();
    const second = (await page.getByLabel('New key').textContent())!.trim();
    expect(second).not.toBe(first);
    // both secrets work within the grace time
    expect(await chat(first)).toBe(200);
    expect(await chat(second)).toBe(200);

    await row.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Requests per minute').fill('30');
    await page.getByRole('button', { name: 'Save' }).click();
    await row.getByText('30 rpm').waitFor();

    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Confirm revoke' }).click();
    await row.getByText('revoked').waitFor();
    expect(await row.getAttribute('data-state')).toBe('revoked');
    expect(await chat(first)).toBe(401);
    expect(await chat(second)).toBe(401);
    expect(await rowOf(keys, 'alpha admin').getAttribute('data-state')).toBe('active');
    await screenshot(page, 'account-keys');

    await nav('Audit');
    const log = page.getByRole('table', { name: 'Audit log' });
    for (const action of ['key.create', 'key.rotate', 'key.update', 'key.revoke'])
      await rowOf(log, action)
        .filter({ hasText: `key:${admin.id}` })
        .first()
        .waitFor();
    // the account's slice only: the platform admin's account.create of gamma is not in it
    expect(await rowOf(log, 'account.create').filter({ hasText: 'account:gamma' }).count()).toBe(0);
    await screenshot(page, 'account-audit');

    await nav('Webhooks');
    await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/gateway');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect((await page.getByLabel('Signing secret').textContent())!).toMatch(/^whsec_/);
    await page.getByRole('table', { name: 'Webhook endpoints' }).getByText('https://hooks.example.com/gateway').waitFor();
    await screenshot(page, 'webhooks');
    expect(errors).toEqual([]);
  });

  it('a member sees no navigation it cannot use', async () => {
    const member = await newKey({ name: 'member' });
    await signIn(member.key);
    expect(await navLabels()).toEqual(['Overview', 'Usage', 'Tasks', 'Batches', 'Models', 'Playground']);
    await page.getByText('Member', { exact: true }).waitFor();
    await page.goto(`${gw.url}/dashboard/keys`);
    await page.getByText('This page is not for this key.').waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await screenshot(page, 'member');
    expect(errors).toEqual([]);
  });

  it('usage: totals over a chosen time range, spend by model, key and account, p50/p95 and error rate', async () => {
    const runner = await newKey({ name: 'usage runner' });
    for (let i = 0; i < 3; i++) expect(await chat(runner.key)).toBe(200);
    await gw.usage.flush();
    await signIn(ADMIN);
    await nav('Usage');
    await page.getByLabel('Time range').selectOption('24h');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const byModel = page.getByRole('table', { name: 'Spend by model' });
    const chatRow = byModel.getByRole('row').filter({ has: page.getByRole('cell', { name: 'sim-chat', exact: true }) });
    await chatRow.waitFor(WAIT);
    const cells = await chatRow.getByRole('cell').allTextContents();
    expect(Number(cells[1])).toBeGreaterThanOrEqual(3);
    expect(Number(cells[2])).toBeGreaterThan(0);
    // a key by its name, and the accounts
    await page.getByRole('table', { name: 'Spend by key' }).getByRole('cell', { name: 'usage runner', exact: true }).waitFor();
    await page.getByRole('table', { name: 'Spend by account' }).getByRole('cell', { name: 'alpha', exact: true }).waitFor();
    const latency = page
      .getByRole('table', { name: 'Latency and errors by model' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'sim-chat', exact: true }) });
    await latency.waitFor();
    const [, requests, p50, p95, errorRate] = await latency.getByRole('cell').allTextContents();
    expect(Number(requests)).toBeGreaterThanOrEqual(3);
    expect(Number(p95)).toBeGreaterThanOrEqual(Number(p50));
    expect(errorRate).toMatch(/^\d+\.\d %$/);
    await page.getByRole('table', { name: 'Latency and errors by provider' }).getByRole('cell', { name: 'sim', exact: true }).waitFor();
    await page.getByRole('figure', { name: 'Spend per day by model (credits)' }).locator('.recharts-bar-rectangle').first().waitFor(WAIT);
    await screenshot(page, 'usage-range');

    // a custom range that ended before the calls shows none of them
    await page.getByLabel('Time range').selectOption('custom');
    await page.getByLabel('To', { exact: true }).fill('2020-01-01T00:00');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No requests match.').waitFor(WAIT);
    expect(await byModel.getByRole('cell', { name: 'sim-chat', exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
