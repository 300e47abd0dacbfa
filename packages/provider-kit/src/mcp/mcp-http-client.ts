import { GatewayError, type CallContext, type McpTool, type McpToolResult, type McpUpstreamPort, type WebhookUrlRule } from '@gateway/core';
import { postMcp, type HostLookup, type McpHttpAnswer } from './mcp-http-transport';

/** The revision the gateway asks older servers for in `initialize` (they may answer an earlier one). */
export const MCP_CLIENT_PROTOCOL = '2025-11-25';
/** The stateless revision, spoken to a server that refuses `initialize` but answers `server/discover`. */
export const MCP_MODERN_PROTOCOL = '2026-07-28';
const CLIENT_INFO = { name: 'gateway', version: '1.0.0' };

/** How requests to a server go: in a session of an older revision, or stateless with the revision in each `_meta`. */
type Session = { id?: string; protocol: string; modern?: boolean };
const MAX_PAGES = 20;

export interface McpHttpServer {
  id: string;
  url: string;
  /** the configured headers, their `env:` references already read: sent on every request, nothing of the client's is */
  headers: Record<string, string>;
}

const malformed = (id: string, what: string) =>
  new GatewayError('upstream_malformed_response', `The MCP server "${id}" answered ${what}.`, { code: 'mcp_malformed_answer' });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A Streamable HTTP MCP client of one upstream server: JSON-RPC over POST, answered in JSON or an event stream;
 * `initialize` first, the `Mcp-Session-Id` the server issues sent back, and a session the server forgot (404) opened
 * again once.
 */
export class McpHttpClient implements McpUpstreamPort {
  private session?: Promise<Session>;
  private nextId = 1;

  constructor(
    private readonly server: McpHttpServer,
    private readonly rule: WebhookUrlRule,
    private readonly lookup?: HostLookup,
  ) {}

  async listTools(ctx: CallContext): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = await this.request('tools/list', cursor ? { cursor } : {}, ctx);
      if (!Array.isArray(result.tools)) throw malformed(this.server.id, 'a tool list without tools');
      for (const t of result.tools) {
        if (!isObject(t) || typeof t.name !== 'string' || !t.name || !isObject(t.inputSchema))
          throw malformed(this.server.id, 'a tool without a name or an input schema');
        tools.push(t as McpTool);
      }
      cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
      if (!cursor) return tools;
    }
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<McpToolResult> {
    const result = await this.request('tools/call', { name, ...(args ? { arguments: args } : {}) }, ctx);
    if (!Array.isArray(result.content)) throw malformed(this.server.id, 'a tool result without content');
    return result as McpToolResult;
  }

  private async request(method: string, params: Record<string, unknown>, ctx: CallContext, again = true): Promise<Record<string, unknown>> {
    const session = await this.open(ctx);
    const id = this.nextId++;
    const body = { jsonrpc: '2.0', id, method, params: session.modern ? { ...params, _meta: this.envelope() } : params };
    const answer = await this.post(body, ctx, session, id);
    if (answer.status === 404 && session.id && again) {
      // the server forgot the session (restarted): one new one
      this.session = undefined;
      return this.request(method, params, ctx, false);
    }
    return this.resultOf(answer, id);
  }

  private open(ctx: CallContext): Promise<Session> {
    this.session ??= this.initialize(ctx).catch((e: unknown) => {
      this.session = undefined;
      throw e;
    });
    return this.session;
  }

  private envelope() {
    return {
      'io.modelcontextprotocol/protocolVersion': MCP_MODERN_PROTOCOL,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
  }

  private async initialize(ctx: CallContext): Promise<Session> {
    const params = { protocolVersion: MCP_CLIENT_PROTOCOL, capabilities: {}, clientInfo: CLIENT_INFO };
    const answer = await this.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params }, ctx, undefined, 0);
    let result: Record<string, unknown>;
    try {
      result = this.resultOf(answer, 0);
    } catch (refused) {
      // a server of the 2026-07-28 revision only: stateless, when server/discover says it speaks it
      if (answer.status !== 401 && answer.status !== 403 && (await this.discovers(ctx)))
        return { protocol: MCP_MODERN_PROTOCOL, modern: true };
      throw refused;
    }
    const protocol = typeof result.protocolVersion === 'string' ? result.protocolVersion : MCP_CLIENT_PROTOCOL;
    const header = answer.headers['mcp-session-id'];
    const session = { id: typeof header === 'string' && header ? header : undefined, protocol };
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, ctx, session);
    return session;
  }

  private async discovers(ctx: CallContext): Promise<boolean> {
    const probe = { jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: this.envelope() } };
    try {
      const result = this.resultOf(await this.post(probe, ctx, { protocol: MCP_MODERN_PROTOCOL, modern: true }, 0), 0);
      return Array.isArray(result.supportedVersions) && result.supportedVersions.includes(MCP_MODERN_PROTOCOL);
    } catch {
      return false;
    }
  }

  private post(body: unknown, ctx: CallContext, session?: Session, waitFor?: number): Promise<McpHttpAnswer> {
    const headers: Record<string, string> = { ...this.server.headers };
    const method = (body as { method?: unknown }).method;
    if (session?.modern && typeof method === 'string') headers['mcp-method'] = method;
    if (session?.id) headers['mcp-session-id'] = session.id;
    if (session) headers['mcp-protocol-version'] = session.protocol;
    return postMcp({ url: this.server.url, headers, body, waitFor, signal: ctx.signal, rule: this.rule, lookup: this.lookup });
  }

  /** The server's own words with the configured header values taken out: an upstream echoing its credentials shows none. */
  private redact(text: string): string {
    let out = text;
    for (const value of Object.values(this.server.headers)) {
      for (const secret of [value, value.replace(/^(Bearer|Basic|Token)\s+/i, '')])
        if (secret.length >= 4) out = out.split(secret).join('[redacted]');
    }
    return out;
  }

  /** The result of request `id`, or the server's refusal as an error (never its credentials). */
  private resultOf(answer: McpHttpAnswer, id: number): Record<string, unknown> {
    const reply = answer.messages.find((m) => isObject(m) && m.id === id) as Record<string, unknown> | undefined;
    if (reply && isObject(reply.error)) {
      const message = typeof reply.error.message === 'string' ? this.redact(reply.error.message.slice(0, 500)) : 'an error';
      throw new GatewayError('upstream_error', `The MCP server "${this.server.id}" answered: ${message}`, {
        code: 'mcp_server_error',
        upstreamStatus: answer.status,
      });
    }
    if (answer.status === 401 || answer.status === 403)
      throw new GatewayError('upstream_error', `The MCP server "${this.server.id}" refused the gateway's credentials (${answer.status}).`, {
        code: 'mcp_server_refused',
        upstreamStatus: answer.status,
      });
    if (answer.status < 200 || answer.status >= 300)
      throw new GatewayError('upstream_error', `The MCP server "${this.server.id}" answered HTTP ${answer.status}.`, {
        code: 'mcp_server_error',
        upstreamStatus: answer.status,
      });
    if (!reply || !isObject(reply.result)) throw malformed(this.server.id, 'no JSON-RPC result');
    return reply.result;
  }
}
