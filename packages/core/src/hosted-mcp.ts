/**
 * Hosted MCP tools run by the gateway (Responses `{type:"mcp"}`, Anthropic `mcp_servers`): the declarations a wire
 * adapter reads, the items an answer carries, and the pure rules of the loop (use-cases/hosted-mcp.ts). A
 * declaration names a registered server by its id or its URL; the gateway then lists that server's tools, offers
 * them to the model as functions and runs the calls itself, whatever the upstream. One it does not know stays a
 * hosted tool (hosted-tools.ts) or an account resource (account-resources.ts), as before.
 */
import type { McpTool, McpToolResult } from './mcp/mcp';
import type { TextRequest } from './text';

/** Which calls wait for the client's approval: OpenAI's `require_approval` (its default is `always`). */
export interface McpApprovalRule {
  default: 'always' | 'never';
  always?: readonly string[];
  never?: readonly string[];
}

/** One MCP server a request declares as a hosted tool. */
export interface HostedMcpServer {
  /** how the client names it: `server_label` (Responses), `name` (Anthropic) */
  label: string;
  url?: string;
  /** the tools the client narrows it to; absent = every tool the caller may use */
  allowedTools?: readonly string[];
  /** tools the client turned off (Anthropic's toolset `configs`) */
  excludedTools?: readonly string[];
  approval: McpApprovalRule;
  /** where it sits in the client's body (top-level array fields and indexes): left out of the native body when the gateway runs it */
  at: ReadonlyArray<{ field: string; index: number }>;
}

/** The client's answer to an `mcp-approval-request` item, with the call it approves or denies. */
export interface McpApprovalAnswer {
  requestId: string;
  approve: boolean;
  reason?: string;
  server: string;
  name: string;
  arguments: string;
}

export interface HostedMcpRequest {
  servers: readonly HostedMcpServer[];
  approvals?: readonly McpApprovalAnswer[];
}

/** What the gateway did with the hosted MCP servers, in order, before the final answer. */
export type HostedMcpItem =
  /** `error`: the server did not answer its listing (none of its tools are offered) */
  | { type: 'mcp-list-tools'; id: string; server: string; tools: McpTool[]; error?: string }
  | { type: 'mcp-call'; id: string; server: string; name: string; arguments: string; output: string; error: string | null }
  | { type: 'mcp-approval-request'; id: string; server: string; name: string; arguments: string };

/** The rounds cap: a model still calling MCP tools after this many rounds gets its answer ended with a warning. */
export const HOSTED_MCP_MAX_ROUNDS = 8;

export function needsApproval(rule: McpApprovalRule, tool: string): boolean {
  if (rule.never?.includes(tool)) return false;
  if (rule.always?.includes(tool)) return true;
  return rule.default === 'always';
}

/** The registered server a declaration names (by id, or by URL), or undefined. */
export function registeredServer<S extends { id: string; url?: string }>(d: HostedMcpServer, servers: readonly S[]): S | undefined {
  return servers.find((s) => s.id === d.label) ?? (d.url ? servers.find((s) => s.url === d.url) : undefined);
}

/** A tool result as the text the model and the client read: text blocks joined, anything else named by its type. */
export function mcpResultText(result: McpToolResult): string {
  return result.content
    .map((b) => {
      const block = b as { type?: unknown; text?: unknown };
      return block.type === 'text' && typeof block.text === 'string' ? block.text : `[${String(block.type)} content]`;
    })
    .join('\n');
}

/**
 * The request without the declarations the gateway runs: their hosted-tool entries and their places in the native
 * body go; the native body is then converted, not forwarded (it no longer says what the rounds send).
 */
export function withoutRunDeclarations(request: TextRequest, run: readonly HostedMcpServer[]): TextRequest {
  const { hostedMcp: _, ...rest } = request;
  const places = run.flatMap((d) => d.at);
  const taken = (field: string, index: number) => places.some((p) => p.field === field && p.index === index);
  const hostedTools = rest.hostedTools?.filter((t) => !places.some((p) => t.param === `${p.field}[${p.index}]`));
  const native = rest.native && {
    ...rest.native,
    translate: true as const,
    body: Object.fromEntries(
      Object.entries(rest.native.body)
        .map(([k, v]) => [k, Array.isArray(v) && places.some((p) => p.field === k) ? v.filter((_, i) => !taken(k, i)) : v] as const)
        .filter(([k, v]) => !(Array.isArray(v) && v.length === 0 && places.some((p) => p.field === k))),
    ),
  };
  return { ...rest, hostedTools: hostedTools?.length ? hostedTools : undefined, ...(native ? { native } : {}) };
}
