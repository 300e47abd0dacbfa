/**
 * Hosted MCP tools in the Responses format: `{type:"mcp"}` tools as the core's declarations, the client's
 * `mcp_approval_response` items as approvals, and the core's MCP steps as OpenAI's `mcp_list_tools`, `mcp_call` and
 * `mcp_approval_request` items and their stream events. A declaration's `headers` and `authorization` are never read.
 */
import type { HostedMcpItem, HostedMcpServer, McpApprovalAnswer, McpApprovalRule } from '@gateway/core';

type Json = Record<string, any>;

const names = (v: unknown): string[] | undefined =>
  Array.isArray(v)
    ? v.map(String)
    : v && typeof v === 'object' && Array.isArray((v as Json).tool_names)
      ? (v as Json).tool_names.map(String)
      : undefined;

/** `require_approval`: "always" (OpenAI's default), "never", or `{always:{tool_names}, never:{tool_names}}`. */
function approvalRule(v: unknown): McpApprovalRule {
  if (v === 'never') return { default: 'never' };
  if (!v || typeof v !== 'object') return { default: 'always' };
  const o = v as Json;
  return { default: 'always', always: names(o.always) ?? [], never: names(o.never) ?? [] };
}

/** The request's top-level `{type:"mcp"}` tools as declarations (the core runs those naming a registered server). */
export function mcpDeclarations(tools: Json[] | null | undefined): HostedMcpServer[] {
  return (tools ?? []).flatMap((t, index) => {
    if (t?.type !== 'mcp' || typeof t.server_label !== 'string') return [];
    const allowed = names(t.allowed_tools);
    const d: HostedMcpServer = {
      label: t.server_label,
      ...(typeof t.server_url === 'string' ? { url: t.server_url } : {}),
      ...(allowed ? { allowedTools: allowed } : {}),
      approval: approvalRule(t.require_approval),
      at: [{ field: 'tools', index }],
    };
    return [d];
  });
}

const MCP_ITEMS = new Set(['mcp_list_tools', 'mcp_call', 'mcp_approval_request', 'mcp_approval_response']);

/**
 * The input without its MCP items (the gateway made them; the model never reads them) and the approvals they carry:
 * each `mcp_approval_response` answers an `mcp_approval_request` of this input or of the previous response's output.
 */
export function mcpInput(input: unknown, previousOutput: unknown): { input: unknown; approvals: McpApprovalAnswer[] } {
  if (!Array.isArray(input)) return { input, approvals: [] };
  const requests = [...(Array.isArray(previousOutput) ? previousOutput : []), ...input].filter(
    (i: Json) => i?.type === 'mcp_approval_request',
  );
  const approvals = input
    .filter((i: Json) => i?.type === 'mcp_approval_response')
    .flatMap((a: Json) => {
      const r = requests.find((q: Json) => q.id === a.approval_request_id);
      if (!r) return [];
      const answer: McpApprovalAnswer = {
        requestId: String(a.approval_request_id),
        approve: a.approve === true,
        ...(typeof a.reason === 'string' ? { reason: a.reason } : {}),
        server: String(r.server_label),
        name: String(r.name),
        arguments: String(r.arguments ?? '{}'),
      };
      return [answer];
    });
  return { input: input.filter((i: Json) => !MCP_ITEMS.has(i?.type)), approvals };
}

/** One MCP step as its output item. */
export function mcpOutputItem(item: HostedMcpItem): Json {
  switch (item.type) {
    case 'mcp-list-tools':
      return {
        id: item.id,
        type: 'mcp_list_tools',
        server_label: item.server,
        tools: item.tools.map((t) => ({
          name: t.name,
          description: t.description ?? null,
          input_schema: t.inputSchema,
          annotations: t.annotations ?? null,
        })),
        error: item.error ?? null,
      };
    case 'mcp-call':
      return {
        id: item.id,
        type: 'mcp_call',
        server_label: item.server,
        name: item.name,
        arguments: item.arguments,
        output: item.output,
        error: item.error,
        status: item.error === null ? 'completed' : 'failed',
      };
    case 'mcp-approval-request':
      return { id: item.id, type: 'mcp_approval_request', server_label: item.server, name: item.name, arguments: item.arguments };
  }
}

/**
 * One MCP step as OpenAI streams it (without sequence numbers): the item added, its own progress events, the item
 * done. `at` is its output index.
 */
export function mcpItemEvents(item: HostedMcpItem, at: number): Json[] {
  const done = mcpOutputItem(item);
  const ref = { item_id: item.id, output_index: at };
  if (item.type === 'mcp-list-tools')
    return [
      { type: 'response.output_item.added', output_index: at, item: { ...done, tools: [] } },
      { type: 'response.mcp_list_tools.in_progress', ...ref },
      { type: 'response.mcp_list_tools.completed', ...ref },
      { type: 'response.output_item.done', output_index: at, item: done },
    ];
  if (item.type === 'mcp-approval-request')
    return [
      { type: 'response.output_item.added', output_index: at, item: done },
      { type: 'response.output_item.done', output_index: at, item: done },
    ];
  return [
    {
      type: 'response.output_item.added',
      output_index: at,
      item: { ...done, arguments: '', output: null, error: null, status: 'in_progress' },
    },
    { type: 'response.mcp_call.in_progress', ...ref },
    { type: 'response.mcp_call_arguments.delta', ...ref, delta: item.arguments },
    { type: 'response.mcp_call_arguments.done', ...ref, arguments: item.arguments },
    { type: item.error === null ? 'response.mcp_call.completed' : 'response.mcp_call.failed', ...ref },
    { type: 'response.output_item.done', output_index: at, item: done },
  ];
}
