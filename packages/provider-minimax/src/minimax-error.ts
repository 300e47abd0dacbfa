import type { GatewayError } from '@gateway/provider-kit';
import { mapUpstreamStatus, upstreamContentPolicy, upstreamQuotaExhausted, type UpstreamFailure } from '@gateway/provider-kit';
import type { MiniMaxBaseResp } from './minimax-api';

/**
 * MiniMax's status codes as the HTTP status they mean, so the shared status table maps them: 1002 rate
 * limit, 1004 authentication, 2013 invalid parameters, 1000/1024 its own failures, 1001 timeout.
 */
const AS_HTTP: Record<number, number> = { 1000: 500, 1001: 408, 1002: 429, 1004: 401, 1024: 500, 1039: 429, 2013: 400, 2049: 401 };
/** 1008 insufficient balance: waiting does not help (another deployment may). */
const QUOTA_CODES = new Set([1008, 1028, 1030]);
/** 1026 input, 1027 output: sensitive content. */
const POLICY_CODES = new Set([1026, 1027]);

/** A `base_resp` with a non-zero code → GatewayError (HTTP status kept when the answer was not a 200). */
export function minimaxBaseRespError(b: MiniMaxBaseResp, f: Pick<UpstreamFailure, 'status' | 'headers' | 'requestId'>): GatewayError {
  const code = b.status_code ?? -1;
  const d = { message: b.status_msg, code: String(code) };
  if (QUOTA_CODES.has(code)) return upstreamQuotaExhausted({ ...f, bodyText: '' }, d);
  if (POLICY_CODES.has(code)) {
    return upstreamContentPolicy(b.status_msg, String(code), f.status);
  }
  const status = f.status >= 200 && f.status < 300 ? (AS_HTTP[code] ?? 502) : f.status;
  return mapUpstreamStatus({ ...f, status, bodyText: '' }, d);
}

/** A non-2xx answer: its `base_resp` when it has one, else its HTTP status. */
export function describeMiniMaxFailure(f: UpstreamFailure): GatewayError {
  const b = (f.json as { base_resp?: MiniMaxBaseResp } | undefined)?.base_resp;
  return b && b.status_code ? minimaxBaseRespError(b, f) : mapUpstreamStatus(f, { message: b?.status_msg });
}
