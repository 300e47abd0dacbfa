import type { FinishReason, Usage } from '@gateway/provider-kit';
import type { AnthropicUsage } from './anthropic-api';

export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

/**
 * Anthropic's input_tokens excludes cache reads and writes; the canonical inputTokens counts every
 * input token (as OpenAI's prompt_tokens does), so the three are added. Thinking is inside output_tokens.
 */
export function mapAnthropicUsage(u: AnthropicUsage | undefined): Usage {
  const read = u?.cache_read_input_tokens ?? 0;
  const write = u?.cache_creation_input_tokens ?? 0;
  const input = (u?.input_tokens ?? 0) + read + write;
  const output = u?.output_tokens ?? 0;
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + output,
    cachedInputTokens: read,
    ...(write ? { cacheCreationInputTokens: write } : {}),
  };
}
