import type { FinishReason, Usage } from '@gateway/core';
import { usageOf } from '../conversion-helpers';
import type { ChatUsage } from './chat-api';

export function mapChatFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
    case 'eos':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** prompt_tokens already counts cached tokens and completion_tokens reasoning ones: the canonical meaning. */
export function mapChatUsage(u: ChatUsage | null | undefined): Usage {
  return usageOf({
    input: u?.prompt_tokens ?? 0,
    output: u?.completion_tokens ?? 0,
    total: u?.total_tokens,
    cached: u?.prompt_tokens_details?.cached_tokens ?? u?.prompt_cache_hit_tokens,
    reasoning: u?.completion_tokens_details?.reasoning_tokens,
  });
}
