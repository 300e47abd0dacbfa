import { MCP_NAME_SEPARATOR, splitToolName } from './mcp-names';

/**
 * Which MCP tools a caller may see and call: entries `server` (every tool of it), `server__*` (the same) and
 * `server__tool`. A group's list and its key's list both apply (the intersection); an absent list allows every
 * configured server.
 */
export type McpAllowList = readonly string[] | null | undefined;

function entryAllows(entry: string, server: string, tool: string | undefined): boolean {
  if (entry === server || entry === `${server}${MCP_NAME_SEPARATOR}*`) return true;
  const e = splitToolName(entry);
  if (!e || e.server !== server) return false;
  // a server is reachable when any of its tools is; a tool only when named
  return tool === undefined || e.tool === tool;
}

/** Whether one list allows the server (tool undefined: any of its tools) or the server's tool. */
export function listAllows(list: McpAllowList, server: string, tool?: string): boolean {
  return !list || list.some((entry) => entryAllows(entry, server, tool));
}

/** Whether the caller (its group's list and its key's) may use the server's tool (tool undefined: some tool of it). */
export function mcpAllows(lists: { group: McpAllowList; key: McpAllowList }, server: string, tool?: string): boolean {
  return listAllows(lists.group, server, tool) && listAllows(lists.key, server, tool);
}

/** Why an entry is refused (neither `server`, `server__*` nor `server__tool` of a configured server), or undefined. */
export function mcpEntryProblem(entry: string, serverIds: readonly string[]): string | undefined {
  const server = splitToolName(entry)?.server ?? entry;
  if (!serverIds.includes(server)) return `"${entry}" names no configured MCP server`;
  return undefined;
}

/**
 * The entries of a key's list that its group's list does not allow: a key list may only narrow its group's, as a
 * key's `models` may. Empty when the key list fits (or the group allows everything).
 */
export function widerMcpEntries(key: readonly string[], group: McpAllowList): string[] {
  if (!group) return [];
  return key.filter((entry) => {
    const e = splitToolName(entry);
    if (!e || e.tool === '*') {
      const server = e?.server ?? entry;
      return !group.some((g) => g === server || g === `${server}${MCP_NAME_SEPARATOR}*`);
    }
    return !listAllows(group, e.server, e.tool);
  });
}
