import type { GatewayError } from '@gateway/provider-kit';
import {
  chatErrorDetails,
  describeChatFailure,
  upstreamContentPolicy,
  upstreamQuotaExhausted,
  type UpstreamFailure,
} from '@gateway/provider-kit';
import { OPENAI_POLICY_CODES, OPENAI_QUOTA_CODES } from './openai-api';

/**
 * OpenAI answers "out of credit" with 429 `insufficient_quota`: unlike a rate limit, waiting does not
 * help, but another deployment may. A moderation refusal is a 400 that is the caller's content.
 */
export function describeOpenAiFailure(f: UpstreamFailure): GatewayError {
  const d = chatErrorDetails(f.json);
  if (f.status === 429 && d.code && OPENAI_QUOTA_CODES.has(d.code)) return upstreamQuotaExhausted(f, d);
  if (f.status === 400 && d.code && OPENAI_POLICY_CODES.has(d.code)) {
    return upstreamContentPolicy(d.message, d.code, f.status);
  }
  return describeChatFailure(f);
}
