/**
 * Anthropic's MCP connector (betas `mcp-client-2025-04-04` and `mcp-client-2025-11-20`) as the core's hosted MCP
 * declarations, and the gateway's MCP calls as `mcp_tool_use` / `mcp_tool_result` blocks. An `authorization_token`
 * is never read: the gateway speaks to a registered server with its own credentials.
 */
import type { HostedMcpItem, HostedMcpServer } from '@gateway/core';
import { toolInput } from './messages.response.codec';

type Json = Record<string, any>;

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);

/**
 * The 2025-11-20 toolset of a server: `default_config.enabled` false allows only the tools `configs` enables; else
 * every tool but those `configs` disables.
 */
function toolsetRule(toolset: Json): { allowed?: string[]; excluded?: string[] } {
  const configs = Object.entries((toolset.configs ?? {}) as Record<string, Json>);
  if (toolset.default_config?.enabled === false) return { allowed: configs.filter(([, c]) => c?.enabled === true).map(([n]) => n) };
  const excluded = configs.filter(([, c]) => c?.enabled === false).map(([n]) => n);
  return excluded.length ? { excluded } : {};
}

/** `mcp_servers` (with their `mcp_toolset` tools, if any) as declarations; calls never wait for an approval here. */
export function mcpServerDeclarations(body: { mcp_servers?: unknown; tools?: unknown }): HostedMcpServer[] {
  const servers = Array.isArray(body.mcp_servers) ? (body.mcp_servers as Json[]) : [];
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  return servers.flatMap((s, index) => {
    if (typeof s?.name !== 'string') return [];
    const at = [{ field: 'mcp_servers', index }];
    const toolsetAt = tools.findIndex((t) => t?.type === 'mcp_toolset' && t.mcp_server_name === s.name);
    const rule = toolsetAt >= 0 ? toolsetRule(tools[toolsetAt]!) : {};
    if (toolsetAt >= 0) at.push({ field: 'tools', index: toolsetAt });
    const config = s.tool_configuration as Json | undefined;
    const allowed = config?.enabled === false ? [] : (strings(config?.allowed_tools) ?? rule.allowed);
    const d: HostedMcpServer = {
      label: s.name,
      ...(typeof s.url === 'string' ? { url: s.url } : {}),
      ...(allowed ? { allowedTools: allowed } : {}),
      ...(rule.excluded ? { excludedTools: rule.excluded } : {}),
      approval: { default: 'never' },
      at,
    };
    return [d];
  });
}

/** One MCP call as its two blocks (tool listings and approval requests have no block in this format). */
export function mcpBlocks(item: HostedMcpItem): Json[] {
  if (item.type !== 'mcp-call') return [];
  return [
    { type: 'mcp_tool_use', id: item.id, name: item.name, server_name: item.server, input: toolInput(item.arguments) },
    {
      type: 'mcp_tool_result',
      tool_use_id: item.id,
      is_error: item.error !== null,
      content: [{ type: 'text', text: item.error ?? item.output }],
    },
  ];
}
