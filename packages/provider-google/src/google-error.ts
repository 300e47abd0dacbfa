import { GatewayError } from '@gateway/provider-kit';
import { mapUpstreamStatus, type UpstreamErrorDetails, type UpstreamFailure } from '@gateway/provider-kit';
import type { GoogleErrorBody, GoogleErrorObject } from './google-api';

function details(e: GoogleErrorObject | undefined): UpstreamErrorDetails {
  return { message: e?.message, type: e?.status };
}

/** google.rpc.RetryInfo `retryDelay: "30s"` stands in for a missing Retry-After header. */
function retryDelay(e: GoogleErrorObject | undefined): string | undefined {
  const d = e?.details?.find((x) => typeof x.retryDelay === 'string')?.retryDelay;
  const m = d ? /^(\d+(?:\.\d+)?)s$/.exec(d) : null;
  return m ? m[1] : undefined;
}

/** Gemini says "bad key" with a 400 INVALID_ARGUMENT; it is the gateway's credential, not the caller's request. */
function isKeyProblem(e: GoogleErrorObject | undefined): boolean {
  return Boolean(e?.details?.some((d) => d.reason === 'API_KEY_INVALID' || d.reason === 'API_KEY_EXPIRED'));
}

export function describeGoogleFailure(f: UpstreamFailure): GatewayError {
  const e = (f.json as GoogleErrorBody | undefined)?.error;
  const status = isKeyProblem(e) ? 401 : f.status;
  const headers = f.headers['retry-after'] || f.headers['retry-after-ms'] ? f.headers : { ...f.headers, 'retry-after': retryDelay(e) };
  return mapUpstreamStatus({ ...f, status, headers }, details(e));
}

/** `{"error":{code,...}}` as a stream chunk: the numeric code is the HTTP status it would have had. */
export function googleStreamError(e: GoogleErrorObject): GatewayError {
  return describeGoogleFailure({ status: typeof e.code === 'number' ? e.code : 500, headers: {}, bodyText: '', json: { error: e } });
}
