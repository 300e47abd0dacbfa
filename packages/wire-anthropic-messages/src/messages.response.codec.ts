import type { AssistantContent, FinishReason, TextResult, Usage } from '@gateway/core';
import { mcpBlocks } from './messages.mcp';
import type { ThinkingDisplay } from './messages.request.codec';

/** Canonical finish reason → Anthropic `stop_reason`. */
const STOP_REASONS: Record<FinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
  error: 'end_turn',
  other: 'end_turn',
};

export function stopReasonOf(finish: FinishReason, stopSequence?: string): string {
  return finish === 'stop' && stopSequence ? 'stop_sequence' : STOP_REASONS[finish];
}

/**
 * Anthropic counts `input_tokens` without the cached part (cache reads and writes are separate counters),
 * while canonical `inputTokens` is the whole prompt, so the cached parts are subtracted here.
 */
export function encodeUsage(u: Usage) {
  const cacheRead = u.cachedInputTokens ?? 0;
  const cacheWrite = u.cacheCreationInputTokens ?? 0;
  return {
    input_tokens: Math.max(0, u.inputTokens - cacheRead - cacheWrite),
    output_tokens: u.outputTokens,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    ...(u.reasoningTokens ? { output_tokens_details: { thinking_tokens: u.reasoningTokens } } : {}),
  };
}

/** Tool arguments arrive as JSON text; Anthropic clients expect an object. Unparseable text becomes `{}`. */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const v = JSON.parse(args || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function encodeBlock(p: AssistantContent, thinking: ThinkingDisplay): object | undefined {
  switch (p.type) {
    case 'text':
      // no `citations` key without citations: @ai-sdk/anthropic rejects `citations: null`
      return { type: 'text', text: p.text };
    case 'reasoning':
      if (thinking === 'off') return undefined;
      return { type: 'thinking', thinking: thinking === 'omitted' ? '' : p.text, signature: p.signature ?? '' };
    case 'tool-call':
      return { type: 'tool_use', id: p.id, name: p.name, input: toolInput(p.arguments) };
  }
}

/** Canonical result → the `message` object. */
export function encodeMessage(id: string, model: string, result: TextResult, thinking: ThinkingDisplay) {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [
      // the gateway's MCP calls come before the answer
      ...(result.hostedMcp ?? []).flatMap(mcpBlocks),
      ...result.content.map((p) => encodeBlock(p, thinking)).filter((b) => b !== undefined),
    ],
    stop_reason: stopReasonOf(result.finishReason, result.stopSequence),
    stop_sequence: result.stopSequence ?? null,
    stop_details: null,
    container: null,
    usage: encodeUsage(result.usage),
  };
}
