import type { AssistantContent, FinishReason, TextResult, Usage } from '@gateway/core';

/** Canonical finish reason → Gemini `finishReason` (a function call ends with STOP, as Gemini does). */
export const FINISH_REASONS: Record<FinishReason, string> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  'tool-calls': 'STOP',
  'content-filter': 'SAFETY',
  error: 'OTHER',
  other: 'OTHER',
};

/**
 * Canonical output tokens include reasoning; Gemini reports thoughts apart, so candidatesTokenCount excludes them
 * and totalTokenCount = prompt + candidates + thoughts.
 */
export function encodeUsageMetadata(u: Usage) {
  const thoughts = u.reasoningTokens ?? 0;
  return {
    promptTokenCount: u.inputTokens,
    candidatesTokenCount: Math.max(0, u.outputTokens - thoughts),
    totalTokenCount: u.inputTokens + u.outputTokens,
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
    ...(u.cachedInputTokens ? { cachedContentTokenCount: u.cachedInputTokens } : {}),
  };
}

export function functionArgs(args: string): Record<string, unknown> {
  try {
    const v = JSON.parse(args || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Canonical parts → Gemini parts; thoughts only when the caller asked for them. */
export function encodeParts(content: AssistantContent[], includeThoughts: boolean): object[] {
  const parts: object[] = [];
  for (const p of content) {
    if (p.type === 'text') parts.push({ text: p.text });
    else if (p.type === 'tool-call') parts.push({ functionCall: { id: p.id, name: p.name, args: functionArgs(p.arguments) } });
    else if (includeThoughts) parts.push({ text: p.text, thought: true, ...(p.signature ? { thoughtSignature: p.signature } : {}) });
  }
  return parts;
}

export interface ResponseIdentity {
  responseId: string;
  modelVersion: string;
}

export function encodeResponse(who: ResponseIdentity, parts: object[], finishReason?: string, usage?: Usage) {
  return {
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0, safetyRatings: [] }],
    ...(usage ? { usageMetadata: encodeUsageMetadata(usage) } : {}),
    modelVersion: who.modelVersion,
    responseId: who.responseId,
  };
}

/** Canonical result → one `GenerateContentResponse`. */
export function encodeGenerateContent(who: ResponseIdentity, result: TextResult, includeThoughts: boolean) {
  return encodeResponse(who, encodeParts(result.content, includeThoughts), FINISH_REASONS[result.finishReason], result.usage);
}
