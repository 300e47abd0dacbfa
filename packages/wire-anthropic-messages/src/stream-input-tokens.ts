import { estimateInputTokens, type TextRequest } from '@gateway/core';

/**
 * The input tokens `message_start` announces. Clients such as LangChain read input tokens only there, so it
 * must not say 0: the count the gateway knows before the call (its estimate; asking the upstream would be
 * a second upstream request per stream). The exact usage follows in message_delta.
 */
export function inputTokensForMessageStart(request: TextRequest): number {
  return estimateInputTokens(request);
}
