import type { Page } from 'playwright-core';
import { startFakeMcpServer, type FakeMcpServer } from '../support/fake-mcp-server';
import { BETA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';
import { describeWithBrowser, screenshot } from './browser';
import { useDashboardSession } from './dashboard-session';

/**
 * The dashboard's "MCP servers" page (issue 39), in Debian's Chromium against a started gateway: the platform admin
 * sees each server with its status and tool count, adds a loopback server with a credential header (never shown
 * back), sees its tools counted, and deletes it; an account key has no such page.
 */
const ADMIN = 'sk-admin-dashboard-mcp-0001';
const TOKEN = 'Bearer dashboard-mcp-secret-51c2';

describeWithBrowser('the dashboard MCP servers page', () => {
  jest.setTimeout(240_000);
  let gw: TestGateway;
  let fake: FakeMcpServer;
  let page: Page;
  let errors: string[];

  const table = () => page.getByRole('table', { name: 'MCP servers' });
  const rowOf = (id: string) =>
    table()
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: id, exact: true }) });

  const ui = useDashboardSession(async () => {
    fake = await startFakeMcpServer({ tools: ['read', 'write'], requireHeader: ['authorization', TOKEN] });
    // the fake's loopback address allowed, as an operator would
    gw = await startTestGateway({ env: { adminKey: ADMIN, variables: { WEBHOOK_ALLOWED_HOSTS: new URL(fake.url).host } } });
    return gw;
  });
  const { main, signIn } = ui;
  beforeEach(() => {
    ({ page, errors } = ui);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('platform admin: lists servers with status and tools, adds one with a credential header, deletes it', async () => {
    await signIn(ADMIN);
    await main().getByRole('link', { name: 'MCP servers', exact: true }).click();
    const sim = rowOf('sim');
    await sim.getByRole('cell', { name: 'ok', exact: true }).waitFor();
    expect(await sim.getByRole('cell').allTextContents()).toEqual(['sim', 'builtin:simulator', 'ok', '3', '—', 'free', 'config file', '']);

    await page.getByLabel('Server id').fill('git');
    await page.getByLabel('Server URL').fill(fake.url);
    await page.getByLabel('Header name (optional)').fill('Authorization');
    await page.getByLabel('Header value').fill(TOKEN);
    await page.getByRole('button', { name: 'Add server' }).click();
    const git = rowOf('git');
    await git.getByRole('cell', { name: 'ok', exact: true }).waitFor();
    expect(await git.getByRole('cell').allTextContents()).toEqual(['git', fake.url, 'ok', '2', 'authorization', 'free', 'admin', 'Delete']);
    expect(await page.getByLabel('Header value').inputValue()).toBe('');
    expect(await page.content()).not.toContain('dashboard-mcp-secret');
    expect(fake.seen.some((h) => h.authorization === TOKEN)).toBe(true);
    await screenshot(page, 'mcp-servers');

    // a refusal is the gateway's own words
    await page.getByLabel('Server id').fill('Git');
    await page.getByLabel('Server URL').fill(fake.url);
    await page.getByRole('button', { name: 'Add server' }).click();
    await page.getByRole('alert').filter({ hasText: 'tool names would collide' }).waitFor();

    await git.getByRole('button', { name: 'Delete' }).click();
    await git.waitFor({ state: 'detached' });
    expect(await table().getByRole('row').count()).toBe(2); // the header row and sim
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
  });

  it('an account key has no MCP servers page', async () => {
    await signIn(BETA_KEY);
    expect(await main().getByRole('link', { name: 'MCP servers' }).count()).toBe(0);
    await page.goto(`${gw.url}/dashboard/mcp`);
    await page.getByText('This page is not for this key.').waitFor();
  });
});
