import type { GatewayError } from '@gateway/provider-kit';
import { mapUpstreamStatus, upstreamContentPolicy, upstreamQuotaExhausted, type UpstreamFailure } from '@gateway/provider-kit';
import type { DashScopeErrorBody } from './dashscope-api';

/** Account problems (arrears, an allocation used up): waiting for a rate limit to pass does not help. */
const QUOTA_CODES = new Set(['Arrearage', 'Throttling.AllocationQuota', 'AllocationQuota.FreeTierOnly']);

/** DashScope's `{code, message, request_id}`: DataInspectionFailed is the content filter, not a bad request. */
export function describeDashScopeFailure(f: UpstreamFailure): GatewayError {
  const e = f.json as DashScopeErrorBody | undefined;
  const d = { message: e?.message, code: e?.code };
  const failure = { ...f, requestId: f.requestId ?? e?.request_id };
  if (e?.code && /DataInspection/.test(e.code)) {
    return upstreamContentPolicy(e.message, e.code, f.status);
  }
  if (e?.code && QUOTA_CODES.has(e.code)) return upstreamQuotaExhausted(failure, d);
  return mapUpstreamStatus(failure, d);
}
