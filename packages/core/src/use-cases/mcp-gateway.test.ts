import type { Principal } from '../auth';
import { GatewayError } from '../errors';
import type { McpTool, McpToolResult } from '../mcp/mcp';
import type { McpUpstreamPort } from '../ports/mcp-upstream.port';
import type { UsageRow } from '../ports/usage-log.port';
import { McpGateway } from './mcp-gateway';

const tool = (name: string): McpTool => ({ name, inputSchema: { type: 'object' } });

function server(tools: string[], onCall?: (name: string) => McpToolResult): McpUpstreamPort & { lists: number } {
  const s = {
    lists: 0,
    async listTools() {
      s.lists += 1;
      return tools.map(tool);
    },
    async callTool(name: string) {
      return onCall?.(name) ?? { content: [{ type: 'text', text: `${name} done` }] };
    },
  };
  return s;
}

const down: McpUpstreamPort = {
  listTools: () => Promise.reject(new GatewayError('upstream_unavailable', 'connection refused')),
  callTool: () => Promise.reject(new GatewayError('upstream_unavailable', 'connection refused')),
};
const hanging: McpUpstreamPort = { listTools: () => new Promise(() => {}), callTool: () => new Promise(() => {}) };

const who = (over: Partial<Principal> = {}): Principal => ({ accountId: 'acct', keyId: 'key1', group: 'default', ...over });
const ctx = () => ({ signal: new AbortController().signal, requestId: 'req1', format: 'mcp' });

function gateway(ports: Record<string, McpUpstreamPort>, groups: Record<string, readonly string[]> = {}) {
  const rows: UsageRow[] = [];
  const gw = new McpGateway({ upstream: (id) => ports[id], usage: { record: (r) => rows.push(r), flush: async () => {} }, timeoutMs: 50 });
  gw.configure({ servers: Object.keys(ports).map((id) => ({ id })), groups });
  return { gw, rows };
}

describe('McpGateway', () => {
  it('lists the allowed tools of every server as <server>__<tool>', async () => {
    const { gw } = gateway({ git: server(['read', 'write']), docs: server(['search']) }, { default: ['git', 'docs__search'] });
    const listing = await gw.listTools(who({ mcp: ['git__read', 'docs'] }), ctx());
    expect(listing.tools.map((t) => t.name)).toEqual(['git__read', 'docs__search']);
    expect(listing.servers).toEqual([
      { id: 'git', status: 'ok', tools: 1 },
      { id: 'docs', status: 'ok', tools: 1 },
    ]);
  });

  it('names a failing or silent server as a status, and refuses the listing when every allowed server failed', async () => {
    const { gw } = gateway({ git: server(['read']), broken: down, slow: hanging });
    const listing = await gw.listTools(who(), ctx());
    expect(listing.tools.map((t) => t.name)).toEqual(['git__read']);
    expect(listing.servers.map((s) => [s.id, s.status])).toEqual([
      ['git', 'ok'],
      ['broken', 'error'],
      ['slow', 'error'],
    ]);
    expect(listing.servers[2]!.error).toMatch(/did not answer within 50 ms/);
    await expect(gw.listTools(who({ mcp: ['broken', 'slow'] }), ctx())).rejects.toMatchObject({
      reason: 'upstream_unavailable',
      code: 'mcp_servers_unavailable',
    });
  });

  it('caches a listing per key only', async () => {
    const git = server(['read']);
    const { gw } = gateway({ git });
    await gw.listTools(who(), ctx());
    await gw.listTools(who(), ctx());
    expect(git.lists).toBe(1);
    await gw.listTools(who({ keyId: 'key2' }), ctx());
    expect(git.lists).toBe(2);
  });

  it('calls an allowed tool and writes a usage row naming server and tool', async () => {
    const { gw, rows } = gateway({ git: server(['read']) });
    const result = await gw.callTool(who(), 'git__read', { path: 'a' }, ctx());
    expect(result.content).toEqual([{ type: 'text', text: 'read done' }]);
    expect(rows).toEqual([
      expect.objectContaining({ keyId: 'key1', accountId: 'acct', model: 'git__read', provider: 'git', status: 'ok', httpStatus: 200 }),
    ]);
    expect(rows[0]!.bytes).toBeGreaterThan(0);
  });

  it('refuses a tool outside the allow-lists or of an unknown server as an unknown tool, with no upstream call', async () => {
    const { gw, rows } = gateway({ git: server(['read', 'write']) }, { default: ['git__read'] });
    await expect(gw.callTool(who(), 'git__write', {}, ctx())).rejects.toMatchObject({ code: 'unknown_tool' });
    await expect(gw.callTool(who(), 'nope__x', {}, ctx())).rejects.toMatchObject({ code: 'unknown_tool' });
    await expect(gw.callTool(who(), 'read', {}, ctx())).rejects.toMatchObject({ code: 'unknown_tool' });
    expect(rows).toEqual([]);
  });

  it('turns an upstream failure into an error with an error usage row', async () => {
    const { gw, rows } = gateway({ broken: down });
    await expect(gw.callTool(who(), 'broken__x', {}, ctx())).rejects.toMatchObject({ reason: 'upstream_unavailable' });
    expect(rows).toEqual([expect.objectContaining({ model: 'broken__x', status: 'error', httpStatus: 503 })]);
  });

  it('charges a priced server per call after the budget check', async () => {
    const calls: string[] = [];
    const rows: UsageRow[] = [];
    const gw = new McpGateway({
      upstream: () => server(['read']),
      usage: { record: (r) => rows.push(r), flush: async () => {} },
      billing: {
        precheck: async () => void calls.push('precheck'),
        settle: async (_p, credits) => void calls.push(`settle ${credits}`),
      },
    });
    gw.configure({ servers: [{ id: 'git', pricePerCall: 2 }], groups: {} });
    await gw.callTool(who(), 'git__read', {}, ctx());
    expect(calls).toEqual(['precheck', 'settle 2']);
    expect(rows[0]!.credits).toBe(2);
  });
});
