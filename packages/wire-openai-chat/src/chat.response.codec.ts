import { resultText, type FinishReason, type ModerationReport, type TextResult, type ToolCallPart, type Usage } from '@gateway/core';
import { moderationOutcomeBody } from '@gateway/http-kit';

export const FINISH_REASONS: Record<FinishReason, string> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  error: 'stop',
  other: 'stop',
};

export function encodeUsage(u: Usage) {
  return {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.totalTokens,
    prompt_tokens_details: { cached_tokens: u.cachedInputTokens ?? 0, text_tokens: u.inputTokens, audio_tokens: 0, image_tokens: 0 },
    completion_tokens_details: {
      text_tokens: u.outputTokens - (u.reasoningTokens ?? 0),
      audio_tokens: 0,
      reasoning_tokens: u.reasoningTokens ?? 0,
    },
  };
}

export const SYSTEM_FINGERPRINT = 'fp_gateway';

/** Canonical results (one per choice) → `chat.completion`. */
export function encodeChatCompletion(id: string, model: string, created: number, results: TextResult[]) {
  const usage = results.reduce<Usage>(
    (a, r) => ({
      inputTokens: results.length > 1 ? r.usage.inputTokens : a.inputTokens + r.usage.inputTokens,
      outputTokens: a.outputTokens + r.usage.outputTokens,
      totalTokens: 0,
      cachedInputTokens: (a.cachedInputTokens ?? 0) + (r.usage.cachedInputTokens ?? 0),
      reasoningTokens: (a.reasoningTokens ?? 0) + (r.usage.reasoningTokens ?? 0),
    }),
    { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  );
  usage.totalTokens = usage.inputTokens + usage.outputTokens;
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: results.map((r, index) => {
      const calls = r.content.filter((p): p is ToolCallPart => p.type === 'tool-call');
      const reasoning = r.content
        .filter((p) => p.type === 'reasoning')
        .map((p) => (p as { text: string }).text)
        .join('');
      const text = resultText(r.content);
      return {
        index,
        message: {
          role: 'assistant',
          content: text || (calls.length ? null : ''),
          refusal: null,
          ...(calls.length
            ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
            : {}),
          ...(reasoning ? { reasoning_content: reasoning } : {}),
        },
        logprobs: null,
        finish_reason: FINISH_REASONS[r.finishReason],
      };
    }),
    usage: encodeUsage(usage),
    system_fingerprint: SYSTEM_FINGERPRINT,
    ...(results[0]?.moderation ? { moderation: encodeModeration(results[0].moderation) } : {}),
  };
}

/** The in-band moderation's verdicts in chat completions' shape (ChatCompletionModeration). */
export function encodeModeration(m: ModerationReport) {
  return { input: moderationOutcomeBody(m.input, 'list'), output: moderationOutcomeBody(m.output, 'list') };
}
