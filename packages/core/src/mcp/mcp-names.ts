/**
 * Tool names on the gateway's MCP endpoint: `<server>__<tool>` always, even with one server, so a name says which
 * upstream answers it. A server id may not contain `__`, which makes the split unambiguous (the first `__` ends the
 * server id); a tool name may.
 */
export const MCP_NAME_SEPARATOR = '__';

/** What a server id may be: what config names may be, without `__`. */
const SERVER_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Why a server id is refused, or undefined when it is a valid one. */
export function mcpServerIdProblem(id: string): string | undefined {
  if (!SERVER_ID.test(id)) return `"${id}" is not a server id (letters, digits, "_", "." and "-", at most 64)`;
  if (id.includes(MCP_NAME_SEPARATOR)) return `"${id}" contains "${MCP_NAME_SEPARATOR}", which separates a server id from its tool names`;
  return undefined;
}

/** A header name (an HTTP token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** Headers the gateway's MCP client sets itself on each request: a server's configured headers may not replace them. */
const CLIENT_HEADERS = new Set([
  'accept',
  'content-type',
  'content-length',
  'host',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
]);

/** Why a header name is refused for a server (config file or admin API), or undefined when it may be sent. */
export function mcpHeaderNameProblem(name: string): string | undefined {
  if (!HEADER_NAME.test(name)) return `${JSON.stringify(name.slice(0, 128))} is not a header name`;
  if (CLIENT_HEADERS.has(name.toLowerCase())) return `${JSON.stringify(name)} is set by the gateway's MCP client itself`;
  return undefined;
}

export function qualifiedToolName(serverId: string, tool: string): string {
  return `${serverId}${MCP_NAME_SEPARATOR}${tool}`;
}

/** `sim__echo` -> {server: 'sim', tool: 'echo'}; undefined for a name without a server part or a tool part. */
export function splitToolName(name: string): { server: string; tool: string } | undefined {
  const at = name.indexOf(MCP_NAME_SEPARATOR);
  if (at <= 0) return undefined;
  const tool = name.slice(at + MCP_NAME_SEPARATOR.length);
  return tool ? { server: name.slice(0, at), tool } : undefined;
}

/**
 * The configured servers' ids, refused at load: an invalid id, or two servers whose names would collide (the same
 * id, or ids equal but for case, which a client's tool table may fold).
 */
export function checkMcpServerIds(ids: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const id of ids) {
    const problem = mcpServerIdProblem(id);
    if (problem) throw new Error(`mcpServers: ${problem}`);
    const folded = id.toLowerCase();
    const other = seen.get(folded);
    if (other !== undefined) throw new Error(`mcpServers: "${id}" collides with "${other}": tool names would be ambiguous`);
    seen.set(folded, id);
  }
}
