import type { Principal } from '../auth';
import { GatewayError, isGatewayError, toGatewayError } from '../errors';
import { mcpAllows, type McpAllowList } from '../mcp/mcp-allow-list';
import { qualifiedToolName, splitToolName } from '../mcp/mcp-names';
import type { McpServerEntry, McpServerStatus, McpTool, McpToolResult } from '../mcp/mcp';
import type { McpUpstreamPort } from '../ports/mcp-upstream.port';
import type { CallContext } from '../ports/text-model.port';
import type { UsageLog } from '../ports/usage-log.port';
import { ReadThroughCache } from '../read-through-cache';
import type { Billing } from './billing';

/** The MCP servers and who may use them: replaced whole when the configuration changes. */
export interface McpDirectory {
  servers: readonly McpServerEntry[];
  /** each group's `mcp` list; a group absent here (or with no list) allows every server */
  groups: Readonly<Record<string, McpAllowList>>;
}

export interface McpGatewayDeps {
  /** the port of a configured server */
  upstream(serverId: string): McpUpstreamPort | undefined;
  usage: UsageLog;
  billing?: Pick<Billing, 'precheck' | 'settle'>;
  now?: () => number;
  /** how long one upstream call may take (listing or tool call); default 30 s */
  timeoutMs?: number;
  /** how long a key's listing of a server is reused; 0 = never; default 30 s */
  listCacheMs?: number;
}

/** The endpoint's answer to a listing: the allowed tools, named `<server>__<tool>`, and how each server answered. */
export interface McpListing {
  tools: McpTool[];
  servers: McpServerStatus[];
}

export interface McpCallMeta extends CallContext {
  format: string;
}

/**
 * The gateway's MCP endpoint: every server a key may use behind one tool list. A server that fails is a status of
 * its own, never an empty list: when every allowed server failed, the listing is an error. A tool call outside the
 * caller's allow-lists is refused as an unknown tool; every call writes one usage row (server, tool, latency, bytes,
 * status) and pays its price, if the server has one.
 */
export class McpGateway {
  private directory: McpDirectory = { servers: [], groups: {} };
  private readonly listings: ReadThroughCache<McpTool[]>;

  constructor(private readonly deps: McpGatewayDeps) {
    this.listings = new ReadThroughCache({ ttlMs: deps.listCacheMs ?? 30_000, maxEntries: 10_000, now: deps.now });
  }

  configure(directory: McpDirectory): void {
    this.directory = directory;
    this.listings.forget();
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private lists(p: Principal) {
    return { group: this.directory.groups[p.group], key: p.mcp };
  }

  /** The servers the caller may use some tool of. */
  allowedServers(p: Principal): McpServerEntry[] {
    return this.directory.servers.filter((s) => mcpAllows(this.lists(p), s.id));
  }

  /** Every configured server, whoever asks (hosted MCP tools name them). */
  servers(): readonly McpServerEntry[] {
    return this.directory.servers;
  }

  /** The caller's tools of one server, as the server names them (none when its lists allow none); a failed server is refused. */
  async toolsOf(p: Principal, serverId: string, ctx: CallContext): Promise<McpTool[]> {
    if (!mcpAllows(this.lists(p), serverId)) return [];
    const a = await this.serverTools(p, serverId, ctx);
    if ('error' in a)
      throw new GatewayError('upstream_unavailable', `The MCP server ${serverId} did not answer: ${a.error}.`, {
        code: 'mcp_server_unavailable',
      });
    return a.tools.filter((t) => mcpAllows(this.lists(p), serverId, t.name));
  }

  /** The caller's tools of every allowed server; refused (upstream_unavailable) when every allowed server failed. */
  async listTools(p: Principal, ctx: CallContext): Promise<McpListing> {
    const listing = await this.gather(p, ctx);
    if (listing.servers.length > 0 && listing.servers.every((s) => s.status === 'error'))
      throw new GatewayError(
        'upstream_unavailable',
        `No MCP server answered: ${listing.servers.map((s) => `${s.id} (${s.error})`).join('; ')}.`,
        { code: 'mcp_servers_unavailable' },
      );
    return listing;
  }

  /** How each server the caller may use answers it (the discovery answer): a status each, whatever failed. */
  async discover(p: Principal, ctx: CallContext): Promise<McpServerStatus[]> {
    return (await this.gather(p, ctx)).servers;
  }

  private async gather(p: Principal, ctx: CallContext): Promise<McpListing> {
    const servers = this.allowedServers(p);
    const answers = await Promise.all(servers.map((s) => this.serverTools(p, s.id, ctx)));
    const listing: McpListing = { tools: [], servers: [] };
    answers.forEach((a, i) => {
      const id = servers[i]!.id;
      if ('error' in a) return listing.servers.push({ id, status: 'error', error: a.error });
      const mine = a.tools.filter((t) => mcpAllows(this.lists(p), id, t.name));
      listing.tools.push(...mine.map((t) => ({ ...t, name: qualifiedToolName(id, t.name) })));
      listing.servers.push({ id, status: 'ok', tools: mine.length });
    });
    return listing;
  }

  /** How each configured server answers now (the admin API): listed without any caller's allow-list. */
  async serverStatuses(ctx: CallContext): Promise<McpServerStatus[]> {
    return await Promise.all(
      this.directory.servers.map(async ({ id }) => {
        const port = this.deps.upstream(id);
        try {
          if (!port) throw new Error('no adapter');
          const tools = await this.timed((c) => port.listTools(c), ctx);
          return { id, status: 'ok' as const, tools: tools.length };
        } catch (e) {
          return { id, status: 'error' as const, error: failureText(e) };
        }
      }),
    );
  }

  private async serverTools(p: Principal, id: string, ctx: CallContext): Promise<{ tools: McpTool[] } | { error: string }> {
    const port = this.deps.upstream(id);
    if (!port) return { error: 'not configured' };
    try {
      // cached per key: a listing is never served to another key's principal
      return { tools: await this.listings.get(`${p.keyId}\u0000${id}`, () => this.timed((c) => port.listTools(c), ctx)) };
    } catch (e) {
      return { error: failureText(e) };
    }
  }

  /** Calls `<server>__<tool>` for the caller: refused when outside its allow-lists or unknown to the server. */
  async callTool(p: Principal, name: string, args: Record<string, unknown> | undefined, meta: McpCallMeta): Promise<McpToolResult> {
    const target = splitToolName(name);
    const server = target && this.directory.servers.find((s) => s.id === target.server);
    const port = server && this.deps.upstream(server.id);
    if (!target || !server || !port || !mcpAllows(this.lists(p), server.id, target.tool))
      throw new GatewayError('not_found', `Unknown tool: ${name}.`, { code: 'unknown_tool', param: 'name', subject: name });
    await this.deps.billing?.precheck(p);
    const started = this.now();
    const row = (status: string, httpStatus: number, extra: { errorCode?: string; bytes?: number; credits?: number } = {}) =>
      this.deps.usage.record({
        requestId: meta.requestId,
        accountId: p.accountId,
        keyId: p.keyId,
        model: name,
        provider: server.id,
        format: meta.format,
        status,
        httpStatus,
        errorCode: extra.errorCode ?? null,
        latencyMs: this.now() - started,
        attempts: 1,
        ...(extra.bytes !== undefined ? { bytes: extra.bytes } : {}),
        ...(extra.credits ? { credits: extra.credits } : {}),
        ...(p.batchId ? { batchId: p.batchId } : {}),
      });
    let result: McpToolResult;
    try {
      result = await this.timed((c) => port.callTool(target.tool, args, c), meta);
    } catch (e) {
      const err = toGatewayError(e);
      row('error', err.status, { errorCode: err.code });
      throw err;
    }
    const credits = server.pricePerCall ?? 0;
    if (credits > 0) await this.deps.billing?.settle(p, credits, 'mcp', { requestId: meta.requestId });
    row(result.isError ? 'tool_error' : 'ok', 200, { bytes: Buffer.byteLength(JSON.stringify(result)), credits });
    return result;
  }

  /** One upstream call under the time limit, also ended when the caller leaves. */
  private async timed<T>(call: (ctx: CallContext) => Promise<T>, ctx: CallContext): Promise<T> {
    const ms = this.deps.timeoutMs ?? 30_000;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), ms);
    const signal = AbortSignal.any([ctx.signal, timeout.signal]);
    try {
      return await Promise.race([
        call({ ...ctx, signal }),
        new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () =>
            reject(
              timeout.signal.aborted
                ? new GatewayError('upstream_timeout', `The MCP server did not answer within ${ms} ms.`, { code: 'mcp_timeout' })
                : new GatewayError('upstream_unavailable', 'The call was abandoned.', { code: 'client_closed' }),
            ),
          ),
        ),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** What a caller and the admin API are told about a failed server: the reason, never upstream secrets. */
function failureText(e: unknown): string {
  if (isGatewayError(e)) return e.message;
  return 'the server failed';
}
