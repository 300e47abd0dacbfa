import { GatewayError } from '@gateway/provider-kit';
import { mapUpstreamStatus, upstreamQuotaExhausted, type UpstreamErrorDetails, type UpstreamFailure } from '@gateway/provider-kit';
import type { AnthropicErrorBody, AnthropicErrorObject } from './anthropic-api';

function details(json: unknown): UpstreamErrorDetails {
  const e = (json as AnthropicErrorBody | undefined)?.error;
  return { message: e?.message, type: e?.type };
}

/** Non-2xx from the Messages API. billing_error means the gateway's account has no credit. */
export function describeAnthropicFailure(f: UpstreamFailure): GatewayError {
  const d = details(f.json);
  if (d.type === 'billing_error') return upstreamQuotaExhausted(f, d);
  return mapUpstreamStatus(f, d);
}

/** The status each error type is sent with, for `event: error` inside a 200 stream. */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function anthropicStreamError(e: AnthropicErrorObject | undefined): GatewayError {
  const type = e?.type ?? 'api_error';
  if (type === 'billing_error') return upstreamQuotaExhausted({ status: 400, headers: {}, bodyText: '' }, { type });
  const status = STATUS_OF_TYPE[type] ?? 500;
  return mapUpstreamStatus({ status, headers: {}, bodyText: '' }, { message: e?.message, type });
}
