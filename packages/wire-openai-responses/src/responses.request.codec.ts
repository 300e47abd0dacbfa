import {
  checkReasoningEffort,
  invalid,
  type ModelSpec,
  type ReasoningEffort,
  type StoredConversation,
  type TextRequest,
  type ToolChoice,
  type ToolDefinition,
} from '@gateway/core';
import { decodeModerationParam } from '@gateway/http-kit';
import { decodeInput, type CompactionOpener } from './responses.input.codec';
import type { ResponsesRequestBody } from './responses.request.schema';

/** Fields with a canonical meaning; every other top-level field is one of the native body's `unread` fields. */
const KNOWN = new Set([
  'model',
  'input',
  'instructions',
  'max_output_tokens',
  'temperature',
  'top_p',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning',
  'previous_response_id',
  'store',
  'background',
  'metadata',
  'text',
  'truncation',
  'include',
  'top_logprobs',
  'user',
  'moderation',
]);

function decodeTools(tools: ResponsesRequestBody['tools']): ToolDefinition[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((t, i) => {
    if (t.type !== 'function') {
      throw invalid(
        'unsupported_tool_type',
        `Tool type ${JSON.stringify(t.type)} is not supported; only "function" tools are.`,
        `tools[${i}].type`,
      );
    }
    // The schema's function rule (if/then) requires name, which its type cannot express.
    return {
      name: t.name as string,
      description: t.description ?? undefined,
      parameters: t.parameters ?? { type: 'object', properties: {} },
    };
  });
}

function decodeToolChoice(choice: ResponsesRequestBody['tool_choice'], tools: ToolDefinition[] | undefined): ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  let out: ToolChoice;
  if (choice === 'disabled') out = 'none';
  else if (typeof choice === 'string') out = choice;
  else {
    const c = choice;
    if (c.type !== 'function' || typeof c.name !== 'string') {
      throw invalid(
        'unsupported_tool_choice',
        '"tool_choice" must be auto, none, required, disabled or {"type":"function","name":...}.',
        'tool_choice',
      );
    }
    if (!tools?.some((t) => t.name === c.name))
      throw invalid('unknown_tool', `"tool_choice" names ${JSON.stringify(c.name)}, which is not among "tools".`, 'tool_choice.name');
    out = { type: 'tool', name: c.name };
  }
  if (out === 'required' && !tools?.length)
    throw invalid('tools_required', '"tool_choice" "required" needs at least one tool.', 'tool_choice');
  return out;
}

function decodeReasoning(r: ResponsesRequestBody['reasoning'], model: ModelSpec): TextRequest['reasoning'] {
  if (!r) return undefined;
  const effort = r.effort ?? undefined;
  const summary = r.summary ?? r.generate_summary ?? undefined;
  if (effort === undefined && summary === undefined) return undefined;
  checkReasoningEffort(model, { effort, param: effort !== undefined ? 'reasoning.effort' : 'reasoning.summary', omit: 'reasoning' });
  return { ...(effort !== undefined ? { effort: effort as ReasoningEffort } : {}), ...(summary ? { includeThoughts: true } : {}) };
}

export interface DecodedResponsesRequest {
  request: TextRequest;
  /** history sent upstream (without `instructions`, which never carry over); stored with the output appended */
  conversation: StoredConversation;
  /** the body's top-level fields the canonical request has no place for (NativeRequest.unread) */
  unread: string[];
}

/**
 * Responses body (already schema-checked) → canonical TextRequest. A previous response's conversation
 * comes first; `instructions` apply to this request only, as in OpenAI's API, while system/developer
 * input items travel with the conversation.
 */
export function decodeResponsesRequest(
  body: ResponsesRequestBody,
  model: ModelSpec,
  previous: StoredConversation | undefined,
  open: CompactionOpener,
): DecodedResponsesRequest {
  if (body.background)
    throw invalid('unsupported_background', '"background" responses are not supported; omit it or set it to false.', 'background');
  const input = decodeInput(body.input, open, previous?.messages);
  const carried = [previous?.system, ...input.system].filter((s): s is string => !!s);
  const messages = [...(previous?.messages ?? []), ...input.messages];
  if (!messages.length) throw invalid('missing_input', 'Give "input" (or a "previous_response_id" to continue).', 'input');

  const tools = decodeTools(body.tools);
  const format = body.text?.format;
  const system = [body.instructions, ...carried].filter((s): s is string => !!s).join('\n\n');

  return {
    unread: Object.keys(body).filter((k) => !KNOWN.has(k)),
    conversation: { ...(carried.length ? { system: carried.join('\n\n') } : {}), messages },
    request: {
      model: body.model,
      system: system || undefined,
      messages,
      tools,
      toolChoice: decodeToolChoice(body.tool_choice, tools),
      maxOutputTokens: body.max_output_tokens ?? undefined,
      temperature: body.temperature ?? undefined,
      topP: body.top_p ?? undefined,
      responseFormat: !format || format.type === 'text' ? undefined : { type: 'json', schema: format.schema, name: format.name },
      reasoning: decodeReasoning(body.reasoning, model),
      user: body.user,
      moderation: decodeModerationParam(body.moderation),
    },
  };
}
