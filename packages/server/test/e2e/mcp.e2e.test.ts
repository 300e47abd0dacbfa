import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startFakeMcpServer, type FakeMcpServer } from '../support/fake-mcp-server';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';
import { testStore } from '../support/test-store';

const NARROW_KEY = 'sk-narrow-test-key-0003';
const DOWN_KEY = 'sk-down-test-key-0004';
const REVOKED_KEY = 'sk-revoked-test-key-0005';
const UPSTREAM_TOKEN = 'Bearer git-upstream-secret';

let gw: TestGateway;
let git: FakeMcpServer;
let docs: FakeMcpServer;
let broken: FakeMcpServer;
const store = testStore();

beforeAll(async () => {
  git = await startFakeMcpServer({ tools: ['read', 'write'], requireHeader: ['authorization', UPSTREAM_TOKEN] });
  docs = await startFakeMcpServer({ tools: ['search', 'fetch'], mode: 'sse' });
  broken = await startFakeMcpServer({ tools: ['x'], mode: 'http-500' });
  const base = testConfigFile();
  gw = await startTestGateway({
    env: {
      ...store.env,
      variables: {
        // loopback upstreams are admitted as webhooks' are: by WEBHOOK_ALLOWED_HOSTS
        WEBHOOK_ALLOWED_HOSTS: [git, docs, broken].map((s) => new URL(s.url).host).join(','),
        GIT_MCP_TOKEN: UPSTREAM_TOKEN,
      },
    },
    config: {
      ...base,
      mcpServers: [
        { id: 'sim', url: 'builtin:simulator' },
        { id: 'git', url: git.url, headers: { Authorization: 'env:GIT_MCP_TOKEN' } },
        { id: 'docs', url: docs.url },
        { id: 'broken', url: broken.url },
      ],
      groups: [{ ...base.groups[0]!, mcp: ['git', 'docs__search'] }, base.groups[1]!, { name: 'down', models: [], mcp: ['broken'] }],
      keys: [
        ...base.keys!,
        { key: NARROW_KEY, account: 'alpha', group: 'default', mcp: ['git__read'] },
        { key: DOWN_KEY, account: 'gamma', group: 'down' },
        { key: REVOKED_KEY, account: 'delta', group: 'vip' },
      ],
    },
  });
});
afterAll(async () => {
  await gw?.stop();
  await store.drop();
  await Promise.all([git.close(), docs.close(), broken.close()]);
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

/** The official client, as a user would point it at the gateway: the URL and one header. */
async function connect(key: string, modern = false): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' }, modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    // jest's vm context lacks Node's undici dispatcher: the global fetch, unchanged on the wire
    fetch: (url, init) => fetch(url, init),
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();
const textOf = (r: unknown) => ((r as { content: Array<{ text: string }> }).content[0] ?? { text: '' }).text;

describe('@modelcontextprotocol/client through the gateway', () => {
  it.each([
    ['older revision (initialize)', false],
    ['2026-07-28 (server/discover)', true],
  ])('lists every allowed tool as <server>__<tool> and calls them: %s', async (_label, modern) => {
    const c = await connect(BETA_KEY, modern);
    // the revision the client settled on: 2026-07-28 through server/discover, else the one initialize answered
    expect(c.getNegotiatedProtocolVersion()).toBe(modern ? '2026-07-28' : '2025-11-25');
    expect(await names(c)).toEqual([
      'docs__fetch',
      'docs__search',
      'git__read',
      'git__write',
      'sim__echo',
      'sim__generate_image',
      'sim__get_weather',
    ]);
    expect(textOf(await c.callTool({ name: 'git__read', arguments: { path: 'README.md' } }))).toBe('read:{"path":"README.md"}');
    expect(textOf(await c.callTool({ name: 'docs__search', arguments: { q: 'mcp' } }))).toBe('search:{"q":"mcp"}');
    expect(textOf(await c.callTool({ name: 'sim__echo', arguments: { text: 'hi' } }))).toBe('hi');
  });

  it("sends the configured headers upstream and nothing of the client's", async () => {
    const c = await connect(BETA_KEY);
    await c.callTool({ name: 'git__read', arguments: {} });
    expect(git.seen.every((h) => h.authorization === UPSTREAM_TOKEN)).toBe(true);
    for (const h of [...git.seen, ...docs.seen]) expect(JSON.stringify(h)).not.toContain('sk-');
  });

  it("applies the group's list and the key's narrower one in listing and calling", async () => {
    const alpha = await connect(ALPHA_KEY);
    expect(await names(alpha)).toEqual(['docs__search', 'git__read', 'git__write']);
    await expect(alpha.callTool({ name: 'docs__fetch', arguments: {} })).rejects.toThrow(/Unknown tool: docs__fetch/);
    const narrow = await connect(NARROW_KEY, true);
    expect(await names(narrow)).toEqual(['git__read']);
    const before = git.calls.length;
    await expect(narrow.callTool({ name: 'git__write', arguments: {} })).rejects.toThrow(/Unknown tool: git__write/);
    expect(git.calls.length).toBe(before);
  });

  it('names a failing upstream in the discovery answer instead of hiding it, and refuses a listing when all are down', async () => {
    const res = await fetch(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }),
    });
    const servers = ((await res.json()) as { result: { _meta: Record<string, Array<{ id: string; status: string }>> } }).result._meta[
      'gateway/servers'
    ]!;
    expect(servers.map((s) => [s.id, s.status])).toEqual([
      ['sim', 'ok'],
      ['git', 'ok'],
      ['docs', 'ok'],
      ['broken', 'error'],
    ]);
    const down = await connect(DOWN_KEY);
    await expect(down.listTools()).rejects.toThrow(/No MCP server answered: broken/);
  });

  it('refuses a revoked key on its next request inside the session it opened', async () => {
    const c = await connect(REVOKED_KEY);
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    const [key] = await gw.stores.keys.listKeys('delta');
    expect(await gw.stores.keys.revokeKey(key!.id)).toBe(true);
    await expect(c.listTools()).rejects.toThrow();
    await expect(c.callTool({ name: 'sim__echo', arguments: { text: 'x' } })).rejects.toThrow();
  });

  it('writes a usage row per tool call naming the server and the tool', async () => {
    const c = await connect(BETA_KEY);
    await c.callTool({ name: 'git__write', arguments: { path: 'x' } });
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ model: 'git__write', format: 'mcp' }).orderBy('created_at', 'desc').first();
    expect(row).toMatchObject({ provider: 'git', status: 'ok', http_status: 200 });
    expect(Number(row.bytes)).toBeGreaterThan(0);
  });
});
