import type { McpTool, McpToolResult } from '../mcp/mcp';
import type { CallContext } from './text-model.port';

/**
 * One upstream MCP server (Streamable HTTP, or the simulator in-process). Failures are thrown as GatewayError:
 * unreachable, timed out or answering garbage (`upstream_*`); a JSON-RPC error of the server's own as `upstream_error`
 * with its message. A tool's own failure is an `isError` result, not a throw.
 */
export interface McpUpstreamPort {
  listTools(ctx: CallContext): Promise<McpTool[]>;
  callTool(name: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<McpToolResult>;
}
