/** What crosses the MCP upstream port: a tool as its server lists it, and a tool call's result. */

/** A tool as an MCP server lists it; fields the gateway does not read (title, annotations, outputSchema...) pass through. */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  [field: string]: unknown;
}

/** A `tools/call` result: content blocks (text, image, ...), optional structured content, `isError` for a tool's own failure. */
export interface McpToolResult {
  content: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  [field: string]: unknown;
}

/** One configured upstream MCP server as the use case knows it (its URL and credentials stay with its adapter). */
export interface McpServerEntry {
  id: string;
  /** its URL: a hosted MCP tool may name the server by it (hosted-mcp.ts) */
  url?: string;
  /** credits charged per tool call; absent = free */
  pricePerCall?: number;
}

/** How a server answered its last listing for a caller: `ok`, or `error` with what went wrong (never its secrets). */
export interface McpServerStatus {
  id: string;
  status: 'ok' | 'error';
  /** the number of tools the caller may use on it, when it answered */
  tools?: number;
  error?: string;
}
