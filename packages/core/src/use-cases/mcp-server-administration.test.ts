import { invalid } from '../errors';
import type { AuditChange, AuditedChanges, ChangeStores } from '../ports/audit-log.port';
import type { McpServerRepository, RegisteredMcpServer } from '../ports/mcp-server-repository.port';
import { McpServerAdministration } from './mcp-server-administration';

const AUTHOR = { actor: { type: 'cli' as const, id: 'cli' }, requestId: null, address: null };

/** The rules of registering MCP servers, over an in-memory store: what is stored, refused, audited and applied. */
function administration() {
  const stored = new Map<string, RegisteredMcpServer>();
  const repo: McpServerRepository = {
    list: async () => [...stored.values()],
    create: async (s) => void stored.set(s.id, s),
    update: async (s) => stored.has(s.id) && !!stored.set(s.id, s),
    remove: async (id) => stored.delete(id),
  };
  const records: AuditChange[] = [];
  const audit: AuditedChanges = {
    async run(_ctx, change) {
      const { result, audit: record } = await change({ mcpServers: repo } as ChangeStores);
      if (record) records.push(record);
      return result;
    },
    list: async () => [],
  };
  const checked: string[][] = [];
  let reloads = 0;
  let refuse: string | undefined;
  const changes = {
    async validate(registered: readonly RegisteredMcpServer[]) {
      checked.push(registered.map((s) => s.id));
      if (refuse) throw invalid('invalid_config_change', refuse);
    },
    reload: async () => void (reloads += 1),
  };
  const fileServers = () => [{ id: 'sim', url: 'builtin:simulator', headers: {} }];
  const admin = new McpServerAdministration({ repo, audit, author: AUTHOR, changes, fileServers, urlRule: { allowedHosts: [] } });
  return { admin, stored, records, checked, reloads: () => reloads, refuseWith: (why: string) => void (refuse = why) };
}

describe('McpServerAdministration', () => {
  it('stores a registered server with lowercase header names, checks the whole set, audits names only, applies it', async () => {
    const t = administration();
    const view = await t.admin.register({ id: 'git', url: 'https://mcp.example.com/git', headers: { Authorization: 'Bearer s3cret' } });
    expect(view).toEqual({
      id: 'git',
      source: 'admin',
      url: 'https://mcp.example.com/git',
      headers: ['authorization'],
      pricePerCall: null,
    });
    expect(t.stored.get('git')!.headers).toEqual({ authorization: 'Bearer s3cret' });
    expect(t.checked).toEqual([['git']]);
    expect(t.reloads()).toBe(1);
    expect(t.records).toEqual([
      {
        action: 'mcp_server.create',
        target: { type: 'mcp_server', id: 'git' },
        accountId: null,
        before: null,
        after: { id: 'git', url: 'https://mcp.example.com/git', headers: ['authorization'], pricePerCall: null },
      },
    ]);
    expect(JSON.stringify(t.records)).not.toContain('s3cret');
    expect((await t.admin.list()).map((s) => `${s.source}:${s.id}`)).toEqual(['file:sim', 'admin:git']);
  });

  it('changes headers one by one (null removes) and keeps the rest', async () => {
    const t = administration();
    await t.admin.register({ id: 'git', url: 'https://mcp.example.com/git', headers: { a: '1', b: '2' } });
    await t.admin.update('git', { headers: { A: null, c: '3' }, pricePerCall: 0.5 });
    expect(t.stored.get('git')).toMatchObject({ headers: { b: '2', c: '3' }, pricePerCall: 0.5, url: 'https://mcp.example.com/git' });
    expect(t.records[1]).toMatchObject({ action: 'mcp_server.update', before: { headers: ['a', 'b'] }, after: { headers: ['b', 'c'] } });
  });

  it("refuses the config file's servers, unknown ids, collisions, bad ids and URLs and env: references, storing nothing", async () => {
    const t = administration();
    await expect(t.admin.update('sim', {})).rejects.toMatchObject({ status: 409, code: 'mcp_server_config_owned' });
    await expect(t.admin.remove('nope')).rejects.toMatchObject({ status: 404, code: 'mcp_server_not_found' });
    await expect(t.admin.register({ id: 'SIM', url: 'https://a.example.com/' })).rejects.toMatchObject({ code: 'mcp_server_exists' });
    await expect(
      t.admin.register({ id: 'x', url: 'https://a.example.com/', headers: { Authorization: 'env:DATABASE_URL' } }),
    ).rejects.toMatchObject({ code: 'invalid_header', param: 'headers.Authorization' });
    await expect(t.admin.register({ id: 'git__hub', url: 'https://a.example.com/' })).rejects.toMatchObject({ code: 'invalid_id' });
    await expect(t.admin.register({ id: 'x', url: 'ftp://a.example.com/' })).rejects.toMatchObject({ code: 'invalid_webhook_url' });
    expect(t.stored.size).toBe(0);
    expect(t.records).toEqual([]);
  });

  it('keeps a server the whole config still needs (the check refuses its deletion)', async () => {
    const t = administration();
    await t.admin.register({ id: 'git', url: 'https://mcp.example.com/git' });
    t.refuseWith('groups.0.mcp.0: "git__read" names no configured MCP server');
    await expect(t.admin.remove('git')).rejects.toMatchObject({ code: 'invalid_config_change' });
    expect(t.checked.at(-1)).toEqual([]);
    expect(t.stored.has('git')).toBe(true);
    expect(t.records.map((r) => r.action)).toEqual(['mcp_server.create']);
  });
});
