import type { Attributes } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from '@opentelemetry/semantic-conventions';
import type { UpstreamAttempt } from '@gateway/core';

/** Provider types whose GenAI semantic-conventions name differs from ours; the others are named by their type. */
const GEN_AI_PROVIDER_NAMES: Readonly<Record<string, string>> = { google: 'gcp.gemini', ark: 'volcengine.ark' };

export function genAiProviderName(providerType: string | undefined, providerId: string): string {
  return providerType ? (GEN_AI_PROVIDER_NAMES[providerType] ?? providerType) : providerId;
}

/** Whether an attempt ended in a failure of its own (a caller who left is not the upstream's fault). */
export function attemptFailed(a: UpstreamAttempt): boolean {
  return a.outcome !== 'ok' && a.outcome !== 'cancelled';
}

/**
 * One upstream attempt's attributes in the GenAI semantic conventions (gen_ai.provider.name and, for older
 * backends, gen_ai.system). Only names, ids and counts: prompts, answers and keys never reach a span.
 */
export function attemptAttributes(a: UpstreamAttempt, providerType: string | undefined): Attributes {
  const provider = genAiProviderName(providerType, a.provider);
  const answer = a.answer ?? {};
  const attrs: Attributes = {
    'gen_ai.operation.name': a.call?.operation,
    'gen_ai.provider.name': provider,
    'gen_ai.system': provider,
    'gen_ai.request.model': a.upstreamModel,
    'gen_ai.response.model': answer.responseModel,
    'gen_ai.response.id': answer.responseId,
    'gen_ai.response.finish_reasons': answer.finishReasons,
    'gen_ai.usage.input_tokens': answer.inputTokens,
    'gen_ai.usage.output_tokens': answer.outputTokens,
    'gateway.provider': a.provider,
    'gateway.model': a.call?.model,
    'gateway.attempt.outcome': a.outcome,
    [ATTR_HTTP_RESPONSE_STATUS_CODE]: a.upstreamStatus,
  };
  if (attemptFailed(a)) attrs[ATTR_ERROR_TYPE] = a.outcome;
  for (const k of Object.keys(attrs)) if (attrs[k] === undefined) delete attrs[k];
  return attrs;
}
