import type { GatewayError } from '@gateway/provider-kit';
import {
  mapUpstreamStatus,
  upstreamContentPolicy,
  upstreamQuotaExhausted,
  type UpstreamErrorDetails,
  type UpstreamFailure,
} from '@gateway/provider-kit';
import type { ArkErrorBody } from './ark-api';

/** Codes that mean the account, not the moment: waiting for a rate limit to pass does not help. */
const QUOTA_CODES = new Set(['QuotaExceeded', 'AccountOverdueError', 'SetLimitExceeded']);

/**
 * Ark's `{"error":{code,message,param,type}}`. Its sensitive-content refusals (`Input…SensitiveContentDetected`)
 * are the caller's content, not a malformed request; quota codes on a 429 are not a passing rate limit.
 */
export function describeArkFailure(f: UpstreamFailure): GatewayError {
  const e = (f.json as ArkErrorBody | undefined)?.error;
  const d: UpstreamErrorDetails = { message: e?.message, code: e?.code, type: e?.type };
  if (e?.code && /SensitiveContent/i.test(e.code)) {
    return upstreamContentPolicy(e.message, e.code, f.status);
  }
  if (e?.code && QUOTA_CODES.has(e.code)) return upstreamQuotaExhausted(f, d);
  return mapUpstreamStatus(f, d);
}
