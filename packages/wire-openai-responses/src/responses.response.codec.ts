import type { FinishReason, ModerationReport, TextResult, Usage } from '@gateway/core';
import { moderationOutcomeBody } from '@gateway/http-kit';
import { mcpOutputItem } from './responses.mcp';
import { encodeOutputItems, encodeResponsesUsage, newItemId } from './responses.output.codec';

type Json = Record<string, any>;

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** What every rendering of one response shares: its id, time, model and the request fields it echoes. */
export interface ResponseHeader {
  id: string;
  createdAt: number;
  model: string;
  body: Json;
}

export interface ResponseState {
  status: ResponseStatus;
  output: object[];
  usage?: Usage;
  error?: { code: string; message: string } | null;
  incompleteReason?: string;
  /** the in-band moderation's verdicts, when asked for */
  moderation?: ModerationReport;
}

/** length → incomplete (max_output_tokens), content filter → incomplete (content_filter), else completed. */
export function statusOf(finish: FinishReason): Pick<ResponseState, 'status' | 'incompleteReason'> {
  if (finish === 'length') return { status: 'incomplete', incompleteReason: 'max_output_tokens' };
  if (finish === 'content-filter') return { status: 'incomplete', incompleteReason: 'content_filter' };
  return { status: 'completed' };
}

/**
 * The request's tools as the answer echoes them: a function tool always has `parameters` and `strict` (OpenAI's
 * FunctionTool requires both; null says the caller did not set it), an MCP tool without its `headers` and
 * `authorization`, every other tool stays as given.
 */
function echoTools(tools: unknown): unknown[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((t: Json) => {
    if (t?.type === 'function') return { ...t, parameters: t.parameters ?? null, strict: t.strict ?? null };
    // an MCP tool's credentials are never echoed (nor stored with the response)
    if (t?.type === 'mcp') {
      const { authorization: _a, headers, ...rest } = t;
      return { ...rest, headers: headers ? null : undefined };
    }
    return t;
  });
}

/** The `response` object, in OpenAI's field order; request settings are echoed with OpenAI's defaults. */
export function encodeResponse(h: ResponseHeader, s: ResponseState) {
  const b = h.body;
  return {
    id: h.id,
    object: 'response',
    created_at: h.createdAt,
    status: s.status,
    background: false,
    error: s.error ?? null,
    incomplete_details: s.incompleteReason ? { reason: s.incompleteReason } : null,
    instructions: b.instructions ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    model: h.model,
    output: s.output,
    parallel_tool_calls: b.parallel_tool_calls ?? true,
    previous_response_id: b.previous_response_id ?? null,
    reasoning: { effort: b.reasoning?.effort ?? null, summary: b.reasoning?.summary ?? b.reasoning?.generate_summary ?? null },
    store: b.store ?? true,
    temperature: b.temperature ?? 1,
    text: b.text ?? { format: { type: 'text' } },
    tool_choice: b.tool_choice ?? 'auto',
    tools: echoTools(b.tools),
    top_p: b.top_p ?? 1,
    truncation: b.truncation ?? 'disabled',
    // OpenAI's schema has `usage` an object and `user` a string: absent until known / when not given, never null
    ...(s.usage ? { usage: encodeResponsesUsage(s.usage) } : {}),
    ...(typeof b.user === 'string' ? { user: b.user } : {}),
    metadata: b.metadata ?? {},
    completed_at: s.status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    ...(s.moderation
      ? {
          moderation: {
            input: moderationOutcomeBody(s.moderation.input, 'single'),
            output: moderationOutcomeBody(s.moderation.output, 'single'),
          },
        }
      : {}),
  };
}

/** Asked for a reasoning summary? Then reasoning items repeat their text as `summary_text`. */
export const wantsSummary = (body: Json): boolean => Boolean(body.reasoning?.summary ?? body.reasoning?.generate_summary);

/** A finished canonical result → the complete response object. */
export function encodeResult(h: ResponseHeader, r: TextResult) {
  const st = statusOf(r.finishReason);
  const itemStatus = st.status === 'incomplete' ? 'incomplete' : 'completed';
  return encodeResponse(h, {
    ...st,
    output: [
      // the gateway's MCP steps (tool listings, calls, approval requests) come before the answer, as OpenAI's do
      ...(r.hostedMcp ?? []).map(mcpOutputItem),
      ...encodeOutputItems(r.content, { summary: wantsSummary(h.body), status: itemStatus, itemId: (k) => newItemId(k, h.id) }),
    ],
    usage: r.usage,
    moderation: r.moderation,
  });
}
