import type { GatewayError } from '@gateway/provider-kit';
import {
  mapUpstreamStatus,
  upstreamContentPolicy,
  upstreamQuotaExhausted,
  type UpstreamErrorDetails,
  type UpstreamFailure,
} from '@gateway/provider-kit';
import type { KlingErrorBody } from './kling-api';

/** 1100–1103: the account (arrears, exhausted resource packs) — waiting does not help; 1302/1303/1304 do pass. */
const QUOTA_CODES = new Set([1100, 1101, 1102, 1103]);
/** 1300/1301: the platform's content policy refused the input. */
const POLICY_CODES = new Set([1300, 1301]);

/** Kling's `{code, message, request_id}` with its HTTP status (401 for 1000–1004, 429 for account and rate codes). */
export function describeKlingFailure(f: UpstreamFailure): GatewayError {
  const e = f.json as KlingErrorBody | undefined;
  const code = typeof e?.code === 'number' ? e.code : undefined;
  const d: UpstreamErrorDetails = { message: e?.message, code: code === undefined ? undefined : String(code) };
  const failure = { ...f, requestId: f.requestId ?? e?.request_id };
  if (code !== undefined && QUOTA_CODES.has(code)) return upstreamQuotaExhausted(failure, d);
  if (code !== undefined && POLICY_CODES.has(code)) {
    return upstreamContentPolicy(e?.message, String(code), f.status);
  }
  return mapUpstreamStatus(failure, d);
}
