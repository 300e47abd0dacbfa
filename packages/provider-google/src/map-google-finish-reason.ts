import { usageOf, type FinishReason, type Usage } from '@gateway/provider-kit';
import type { GoogleUsage } from './google-api';

const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT']);

export function mapGoogleFinishReason(reason: string | undefined, hasToolCalls: boolean): FinishReason {
  if (reason === 'STOP') return hasToolCalls ? 'tool-calls' : 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason && FILTERED.has(reason)) return 'content-filter';
  if (reason === 'MALFORMED_FUNCTION_CALL' || reason === 'UNEXPECTED_TOOL_CALL') return 'error';
  return 'other';
}

/**
 * candidatesTokenCount excludes thinking; the canonical outputTokens includes it (as OpenAI's
 * completion_tokens does), so thoughts are added. promptTokenCount already counts cached content.
 */
export function mapGoogleUsage(u: GoogleUsage | undefined): Usage {
  const thoughts = u?.thoughtsTokenCount;
  return usageOf({
    input: (u?.promptTokenCount ?? 0) + (u?.toolUsePromptTokenCount ?? 0),
    output: (u?.candidatesTokenCount ?? 0) + (thoughts ?? 0),
    total: u?.totalTokenCount,
    cached: u?.cachedContentTokenCount,
    reasoning: thoughts,
  });
}
