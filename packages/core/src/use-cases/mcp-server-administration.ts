/** Registering upstream MCP servers through the admin API: checked as the config file's are, sealed, audited, applied. */
import { GatewayError, invalid } from '../errors';
import { mcpHeaderNameProblem, mcpServerIdProblem } from '../mcp/mcp-names';
import type { AuditChange, AuditContext, AuditedChanges } from '../ports/audit-log.port';
import { SecretRequiredError } from '../ports/catalogue-repository.port';
import type { McpServerChanges, McpServerRepository, RegisteredMcpServer } from '../ports/mcp-server-repository.port';
import { checkWebhookUrl, type WebhookUrlRule } from '../webhooks/webhook-url';

/** A config file's server as the admin API shows it (its header values are never read here). */
export interface FileMcpServer {
  id: string;
  url: string;
  headers: Record<string, string>;
  pricePerCall?: number;
}

/** What the admin API shows of a server: header names only, never their values. */
export interface McpServerView {
  id: string;
  source: 'file' | 'admin';
  url: string;
  headers: string[];
  pricePerCall: number | null;
}

export interface McpServerAdministrationDeps {
  /** reads (the writes go through the audit log's transaction) */
  repo: McpServerRepository;
  audit: AuditedChanges;
  author: AuditContext;
  changes: McpServerChanges;
  /** the config file's servers: shown, and read-only through the API */
  fileServers(): readonly FileMcpServer[];
  /** WEBHOOK_ALLOWED_HOSTS: where a private or loopback URL may point */
  urlRule: WebhookUrlRule;
}

/** A registration as the admin API's schema let it through (wire-mcp): shapes checked, the rules below not yet. */
export interface McpServerFields {
  id: string;
  url: string;
  /** header name -> value, or null to remove it (a change) */
  headers?: Record<string, string | null>;
  pricePerCall?: number | null;
}

/** A change of a registered server: the fields left out are kept. */
export type McpServerChange = Partial<Omit<McpServerFields, 'id'>>;

export const viewOf = (s: FileMcpServer | RegisteredMcpServer, source: McpServerView['source']): McpServerView => ({
  id: s.id,
  source,
  url: s.url,
  headers: Object.keys(s.headers),
  pricePerCall: s.pricePerCall ?? null,
});

/** What an audit record keeps of a server: its header names, never their values. */
const snapshot = (s: RegisteredMcpServer | undefined) =>
  s ? { id: s.id, url: s.url, headers: Object.keys(s.headers), pricePerCall: s.pricePerCall } : null;

/**
 * The headers after a change: each named header set (a literal, sealed at rest) or removed with null; names are
 * case-insensitive and stored lowercase. `env:` references are the config file's: an admin gives the value itself.
 */
function mergeHeaders(current: Record<string, string>, changes: McpServerFields['headers']): Record<string, string> {
  if (changes === undefined) return current;
  const next = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    const param = `headers.${name.slice(0, 128)}`;
    const lower = name.toLowerCase();
    if (mcpHeaderNameProblem(name))
      throw invalid('invalid_header', `${JSON.stringify(name.slice(0, 128))} is not a header a server may be given.`, param);
    if (value === null) {
      delete next[lower];
      continue;
    }
    if (value.startsWith('env:'))
      throw invalid(
        'invalid_header',
        `"${param}": give the value itself (stored encrypted); env: references are for the config file.`,
        param,
      );
    next[lower] = value;
  }
  return next;
}

const notFound = (id: string) =>
  new GatewayError('not_found', `No MCP server "${id.slice(0, 64)}" registered through the admin API.`, { code: 'mcp_server_not_found' });

/**
 * Upstream MCP servers registered through the admin API, beside the config file's (which stay read-only here): the
 * same id and URL rules as the file, header values sealed at rest and shown by name only, every change audited and
 * checked against the whole configuration (a group's list naming a server keeps it), then applied here at once and
 * on other instances when they see the catalogue's version move.
 */
export class McpServerAdministration {
  constructor(private readonly deps: McpServerAdministrationDeps) {}

  as(author: AuditContext): McpServerAdministration {
    return new McpServerAdministration({ ...this.deps, author });
  }

  /** The config file's servers, then the registered ones. */
  async list(): Promise<McpServerView[]> {
    const file = this.deps.fileServers().map((s) => viewOf(s, 'file'));
    return [...file, ...(await this.deps.repo.list()).map((s) => viewOf(s, 'admin'))];
  }

  async register(b: McpServerFields): Promise<McpServerView> {
    const problem = mcpServerIdProblem(b.id);
    if (problem) throw invalid('invalid_id', `"id": ${problem}.`, 'id');
    const registered = await this.deps.repo.list();
    const other = [...this.deps.fileServers(), ...registered].find((s) => s.id.toLowerCase() === b.id.toLowerCase());
    if (other)
      throw new GatewayError('conflict', `An MCP server "${other.id}" exists; tool names would collide with "${b.id}".`, {
        code: 'mcp_server_exists',
        param: 'id',
      });
    const server = this.checked({ id: b.id, url: '', headers: {}, pricePerCall: null }, b);
    await this.write(registered, server, null);
    return viewOf(server, 'admin');
  }

  async update(id: string, b: McpServerChange): Promise<McpServerView> {
    const registered = await this.ownServers(id);
    const before = registered.find((s) => s.id === id)!;
    const server = this.checked(before, b);
    await this.write(registered, server, before);
    return viewOf(server, 'admin');
  }

  async remove(id: string): Promise<void> {
    const registered = await this.ownServers(id);
    const before = registered.find((s) => s.id === id)!;
    await this.deps.changes.validate(registered.filter((s) => s !== before));
    await this.deps.audit.run(this.deps.author, async ({ mcpServers }) => {
      if (!(await mcpServers.remove(id))) throw notFound(id);
      return { result: undefined, audit: this.audit('delete', id, before, undefined) };
    });
    await this.deps.changes.reload();
  }

  /** The registered servers, when `id` is one of them; the file's are refused (409), an unknown id is 404. */
  private async ownServers(id: string): Promise<RegisteredMcpServer[]> {
    if (this.deps.fileServers().some((s) => s.id === id))
      throw new GatewayError('conflict', `The MCP server "${id}" comes from the config file: change it there.`, {
        code: 'mcp_server_config_owned',
      });
    const registered = await this.deps.repo.list();
    if (!registered.some((s) => s.id === id)) throw notFound(id);
    return registered;
  }

  /** The server with the body's changes, each field checked as the config file's are. */
  private checked(current: RegisteredMcpServer, b: McpServerChange): RegisteredMcpServer {
    const url = b.url === undefined && current.url ? current.url : checkWebhookUrl(b.url, this.deps.urlRule, 'url').toString();
    const pricePerCall = b.pricePerCall !== undefined ? b.pricePerCall : current.pricePerCall;
    return { id: current.id, url, headers: mergeHeaders(current.headers, b.headers), pricePerCall };
  }

  private async write(registered: RegisteredMcpServer[], server: RegisteredMcpServer, before: RegisteredMcpServer | null) {
    await this.deps.changes.validate([...registered.filter((s) => s.id !== server.id), server]);
    try {
      await this.deps.audit.run(this.deps.author, async ({ mcpServers }) => {
        if (!before) await mcpServers.create(server);
        else if (!(await mcpServers.update(server))) throw notFound(server.id);
        return { result: undefined, audit: this.audit(before ? 'update' : 'create', server.id, before ?? undefined, server) };
      });
    } catch (e) {
      if (e instanceof SecretRequiredError)
        throw invalid(
          'secret_required',
          `"${e.field}" is stored encrypted, and this gateway has no GATEWAY_SECRET to encrypt it with: set GATEWAY_SECRET.`,
          e.field,
        );
      throw e;
    }
    await this.deps.changes.reload();
  }

  private audit(verb: string, id: string, before: RegisteredMcpServer | undefined, after: RegisteredMcpServer | undefined): AuditChange {
    return {
      action: `mcp_server.${verb}`,
      target: { type: 'mcp_server', id },
      accountId: null,
      before: snapshot(before),
      after: snapshot(after),
    };
  }
}
