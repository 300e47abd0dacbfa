import { estimateInputTokens, type Principal, type TextCallMeta, type TextGeneration, type TextRequest } from '@gateway/core';

/**
 * The input tokens `message_start` announces. Clients such as LangChain read input tokens only there, so it
 * must not say 0: the upstream's count (run alongside the generation, not before it), else the estimate.
 */
export async function inputTokensForMessageStart(
  text: TextGeneration,
  principal: Principal,
  request: TextRequest,
  meta: TextCallMeta,
): Promise<number> {
  try {
    return (await text.countTokens(principal, request, meta)).inputTokens;
  } catch {
    return estimateInputTokens(request);
  }
}
