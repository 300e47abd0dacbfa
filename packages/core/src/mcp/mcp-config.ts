import type { RegisteredMcpServer } from '../ports/mcp-server-repository.port';
import { checkWebhookUrl } from '../webhooks/webhook-url';
import { mcpEntryProblem, widerMcpEntries, type McpAllowList } from './mcp-allow-list';
import { checkMcpServerIds, mcpHeaderNameProblem } from './mcp-names';

/** A config file's `mcpServers[]` entry as written (its schema is the server's config.schema.ts): a Streamable HTTP URL (or the built-in simulator) and the headers sent to it. */
export interface McpServerConfig {
  id: string;
  url: string;
  /** header name -> `env:NAME` or a literal; sent on every request to the server, nothing of the client's is */
  headers?: Record<string, string>;
  /** credits per tool call */
  pricePerCall?: number;
}

/** A server the gateway speaks to: its headers' `env:` references read; `admin` when registered through the admin API. */
export type McpServer = McpServerConfig & { headers: Record<string, string>; source: 'file' | 'admin' };

/** The checked MCP section: the file's servers then the registered ones, and each group's allow-list. */
export interface McpConfig {
  servers: McpServer[];
  groups: Record<string, McpAllowList>;
  /** WEBHOOK_ALLOWED_HOSTS: where a private or loopback MCP URL may point */
  allowedHosts: string[];
  /** `mcpOAuth`: the OAuth 2.1 option of POST /mcp (wire-mcp's mcp-oauth.ts); undefined = off */
  oauth: McpOAuthConfig | undefined;
}

/** `mcpOAuth`: the authorization servers whose tokens a client is told to bring (RFC 9728 metadata). */
export interface McpOAuthConfig {
  authorizationServers: string[];
}

/** The in-process simulator server's URL (the zero-config start's `sim`). */
export const BUILTIN_SIMULATOR_URL = 'builtin:simulator';

/** How the config reader refuses a field: it throws, naming the field. */
type Fail = (field: string, problem: string) => never;

interface McpSections {
  mcpServers?: McpServerConfig[];
  mcpOAuth?: McpOAuthConfig;
  groups: Array<{ name: string; mcp?: string[] }>;
  keys?: Array<{ group: string; mcp?: string[] }>;
}

/**
 * The MCP parts of the config file, checked at load: server ids (no `__`, no collisions), URLs under the webhook
 * rules (a private or loopback one only for WEBHOOK_ALLOWED_HOSTS, refused in one line naming it), `env:` headers
 * set, allow-lists naming configured servers, and no key list wider than its group's. The servers registered through
 * the admin API join the file's (their URLs were checked when registered; the client checks each address again).
 */
export function checkMcpConfig(
  file: McpSections,
  env: { variables: Readonly<Record<string, string | undefined>>; allowedHosts: string[] },
  fail: Fail,
  registered: readonly RegisteredMcpServer[] = [],
): McpConfig {
  const written = file.mcpServers ?? [];
  const idsOf = (list: ReadonlyArray<{ id: string }>, note = '') => {
    try {
      checkMcpServerIds(list.map((s) => s.id));
    } catch (e) {
      fail('mcpServers', (e as Error).message.replace(/^mcpServers: /, '') + note);
    }
  };
  idsOf(written);
  idsOf([...written, ...registered], ' (one of them registered through the admin API: delete it there)');
  const { allowedHosts } = env;
  const servers = written.map((s, i) => fileServer(s, i, env.variables, allowedHosts, fail));
  for (const r of registered)
    servers.push({
      id: r.id,
      url: r.url,
      headers: r.headers,
      ...(r.pricePerCall !== null ? { pricePerCall: r.pricePerCall } : {}),
      source: 'admin',
    });
  const groups = checkAllowLists(
    file,
    servers.map((s) => s.id),
    fail,
  );
  return { servers, groups, allowedHosts, oauth: file.mcpOAuth && checkOAuth(file.mcpOAuth, fail) };
}

/** A file server: its URL under the webhook rules (the built-in simulator aside), its `env:` headers read. */
function fileServer(
  s: McpServerConfig,
  i: number,
  env: Readonly<Record<string, string | undefined>>,
  allowedHosts: string[],
  fail: Fail,
): McpServer {
  if (s.url !== BUILTIN_SIMULATOR_URL)
    try {
      checkWebhookUrl(s.url, { allowedHosts }, 'url');
    } catch (e) {
      fail(`mcpServers.${i}.url`, `${JSON.stringify(s.url)}: ${(e as Error).message.replace(/"url" /, 'the URL ')}`);
    }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(s.headers ?? {})) {
    const problem = mcpHeaderNameProblem(name);
    if (problem) fail(`mcpServers.${i}.headers`, problem);
    const ref = /^env:(.+)$/.exec(value);
    const resolved = ref ? env[ref[1]!] : value;
    if (!resolved) fail(`mcpServers.${i}.headers.${name}`, `environment variable ${ref![1]} is not set`);
    headers[name.toLowerCase()] = resolved;
  }
  return { ...s, headers, source: 'file' };
}

/** Each group's and key's list names configured servers; no key's list is wider than its group's. */
function checkAllowLists(file: McpSections, ids: string[], fail: Fail): Record<string, McpAllowList> {
  const checkList = (field: string, list: string[] | undefined) =>
    list?.forEach((entry, j) => {
      const problem = mcpEntryProblem(entry, ids);
      if (problem) fail(`${field}.${j}`, problem);
    });
  const groups: Record<string, McpAllowList> = {};
  file.groups.forEach((g, i) => {
    checkList(`groups.${i}.mcp`, g.mcp);
    groups[g.name] = g.mcp;
  });
  file.keys?.forEach((k, i) => {
    checkList(`keys.${i}.mcp`, k.mcp);
    const wider = k.mcp ? widerMcpEntries(k.mcp, groups[k.group]) : [];
    if (wider.length) fail(`keys.${i}.mcp`, `${JSON.stringify(wider)} is wider than group "${k.group}" allows`);
  });
  return groups;
}

/** An authorization server is an issuer identifier (RFC 8414): an https URL without query or fragment. */
function checkOAuth(oauth: McpOAuthConfig, fail: Fail): McpOAuthConfig {
  oauth.authorizationServers.forEach((raw, i) => {
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    if (!url || url.protocol !== 'https:' || url.search || url.hash || url.username || url.password)
      fail(
        `mcpOAuth.authorizationServers.${i}`,
        `${JSON.stringify(raw)} is not an issuer URL (https, without query, fragment or credentials)`,
      );
  });
  return { authorizationServers: [...oauth.authorizationServers] };
}
