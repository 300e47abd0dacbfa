import {
  type HostedTool,
  checkReasoningEffort,
  invalid,
  mayReason,
  type ModelSpec,
  type ReasoningEffort,
  type TextRequest,
  type ToolChoice,
  type ToolDefinition,
} from '@gateway/core';
import { decodeConversation } from './messages.content.codec';
import { mcpServerDeclarations } from './messages.mcp';
import type { CountTokensRequestBody, MessagesRequestBody } from './messages.request.schema';

/** The dialect of this format's bodies (native-request.ts) and of its hosted tools (hosted-tools.ts). */
const DIALECT = 'anthropic-messages';

/** count_tokens bodies share the shape, with max_tokens optional. */
type Body = MessagesRequestBody | CountTokensRequestBody;

/** How thinking blocks appear in the answer: not at all, with their text, or with the text left empty. */
export type ThinkingDisplay = 'off' | 'summarized' | 'omitted';

export interface DecodedMessagesRequest {
  request: TextRequest;
  thinking: ThinkingDisplay;
}

/** Fields with a canonical meaning; every other top-level field is one of the native body's `unread` fields. */
const KNOWN = new Set([
  'model',
  'messages',
  'max_tokens',
  'system',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'metadata',
  'output_config',
  'output_format',
]);

/** Anthropic's server tools: run inside Anthropic (core/hosted-tools.ts decides what other upstreams get). */
const SERVER_TOOL = /^(web_search|web_fetch|code_execution)_\d+$/;

function decodeTools(raw: Body['tools']): { tools?: ToolDefinition[]; hosted: HostedTool[] } {
  const hosted: HostedTool[] = [];
  const tools: ToolDefinition[] = [];
  raw?.forEach((t, i) => {
    // an MCP server's toolset belongs to its `mcp_servers` entry (messages.mcp.ts)
    if (t.type === 'mcp_toolset') return;
    if (t.type != null && SERVER_TOOL.test(t.type)) {
      hosted.push({ format: DIALECT, type: t.type, param: `tools[${i}]`, definition: t as unknown as Record<string, unknown> });
      return;
    }
    // Anthropic-defined client tools (bash, text_editor, computer) have schemas only Anthropic knows.
    if (t.type != null && t.type !== 'custom') {
      throw invalid(
        'unsupported_tool',
        `Tool type ${JSON.stringify(t.type)} is not supported; only custom tools with "input_schema" and the server tools web_search_*, web_fetch_* and code_execution_* are.`,
        `tools[${i}].type`,
      );
    }
    if (!t.input_schema) throw invalid('missing_field', `Missing required field "tools[${i}].input_schema".`, `tools[${i}].input_schema`);
    tools.push({ name: String(t.name), description: t.description, parameters: t.input_schema });
  });
  return { tools: raw ? tools : undefined, hosted };
}

function decodeToolChoice(raw: Body['tool_choice'], tools: ToolDefinition[] | undefined): ToolChoice | undefined {
  if (!raw) return undefined;
  const choice: ToolChoice = raw.type === 'any' ? 'required' : raw.type === 'tool' ? { type: 'tool', name: raw.name ?? '' } : raw.type;
  if ((raw.type === 'any' || raw.type === 'tool') && !tools?.length) {
    throw invalid('tools_required', `"tool_choice" of type ${JSON.stringify(raw.type)} needs at least one tool.`, 'tool_choice');
  }
  if (typeof choice === 'object' && !tools?.some((t) => t.name === choice.name)) {
    throw invalid('unknown_tool', `"tool_choice.name" ${JSON.stringify(choice.name)} is not among "tools".`, 'tool_choice.name');
  }
  return choice;
}

function decodeReasoning(body: Body, model: ModelSpec): { reasoning: TextRequest['reasoning']; thinking: ThinkingDisplay } {
  const t = body.thinking;
  const effort = body.output_config?.effort;
  if (effort != null) checkReasoningEffort(model, { effort, param: 'output_config.effort' });
  const wantsThinking = t !== undefined && t.type !== 'disabled';
  if (t?.type === 'enabled') {
    checkReasoningEffort(model, { param: 'thinking' });
    // The schema's if/then requires budget_tokens here; count_tokens bodies may lack max_tokens.
    if (t.budget_tokens !== undefined && body.max_tokens !== undefined && t.budget_tokens >= body.max_tokens) {
      throw invalid('invalid_budget_tokens', '"thinking.budget_tokens" must be less than "max_tokens".', 'thinking.budget_tokens');
    }
  }
  // adaptive / between_tools leave the choice to the model; a model declared unable to think simply does not.
  const thinks = wantsThinking && mayReason(model);
  const thinking: ThinkingDisplay = thinks ? (t!.display === 'omitted' ? 'omitted' : 'summarized') : 'off';
  if (!thinks && effort == null) return { reasoning: undefined, thinking };
  return {
    reasoning: {
      ...(effort != null ? { effort: effort as ReasoningEffort } : {}),
      ...(t?.type === 'enabled' ? { budgetTokens: t.budget_tokens } : {}),
      includeThoughts: thinking === 'summarized',
    },
    thinking,
  };
}

function systemText(system: Body['system'], fromMessages: string[]): string | undefined {
  const head = typeof system === 'string' ? [system] : Array.isArray(system) ? system.map((b) => String(b.text)) : [];
  const all = [...head, ...fromMessages].filter((s) => s !== '');
  return all.length ? all.join('\n\n') : undefined;
}

/** Messages body (already schema-checked) → canonical TextRequest, with the model's own limits. */
export function decodeMessagesRequest(body: Body, model: ModelSpec, headers: Record<string, string> = {}): DecodedMessagesRequest {
  const conversation = decodeConversation(body.messages);
  const { tools, hosted } = decodeTools(body.tools);
  const toolChoice = decodeToolChoice(body.tool_choice, tools);
  const { reasoning, thinking } = decodeReasoning(body, model);
  const format = body.output_config?.format ?? body.output_format;
  const mcpServers = mcpServerDeclarations(body);

  return {
    thinking,
    request: {
      model: body.model,
      system: systemText(body.system, conversation.system),
      messages: conversation.messages,
      tools,
      toolChoice,
      maxOutputTokens: body.max_tokens,
      temperature: body.temperature,
      topP: body.top_p,
      topK: body.top_k,
      stopSequences: body.stop_sequences,
      responseFormat: format ? { type: 'json', schema: format.schema } : undefined,
      reasoning,
      user: body.metadata?.user_id ?? undefined,
      hostedTools: hosted.length ? hosted : undefined,
      ...(mcpServers.length ? { hostedMcp: { servers: mcpServers } } : {}),
      // an Anthropic upstream sends this as written (native-request.ts); the fields above serve everything else
      native: {
        dialect: DIALECT,
        body: body as unknown as Record<string, unknown>,
        headers,
        unread: Object.keys(body).filter((k) => !KNOWN.has(k)),
      },
    },
  };
}
