import type { ErrorReason, GatewayError } from '@gateway/core';

export interface RenderedError {
  status: number;
  body: unknown;
}

/** How one wire format shows a GatewayError. */
export type ErrorRenderer = (err: GatewayError) => RenderedError;

/** OpenAI's `error.type` for each reason: the one table for every OpenAI-shaped endpoint. */
const OPENAI_TYPES: Record<ErrorReason, string> = {
  invalid_request: 'invalid_request_error',
  unauthenticated: 'authentication_error',
  permission_denied: 'permission_error',
  model_not_in_group: 'model_not_available',
  model_not_found: 'invalid_request_error',
  not_found: 'not_found_error',
  conflict: 'conflict_error',
  payload_too_large: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  quota_exhausted: 'insufficient_quota',
  content_policy: 'content_policy_violation',
  upstream_error: 'upstream_error',
  upstream_unavailable: 'service_unavailable',
  upstream_timeout: 'timeout_error',
  internal: 'server_error',
};

/** `{error:{message,type,param,code}}`, every value a string. */
export const renderOpenAiError: ErrorRenderer = (err) => ({
  status: err.status,
  body: { error: { message: err.message, type: OPENAI_TYPES[err.reason], param: err.param ?? '', code: err.code } },
});

/** `{code, message}`: the long-running-operation creation and task-read endpoints. */
export const renderCodeMessageError: ErrorRenderer = (err) => ({
  status: err.status,
  body: { code: err.code, message: err.message },
});

/** Anthropic's `error.type` per reason. */
const ANTHROPIC_TYPES: Record<ErrorReason, string> = {
  invalid_request: 'invalid_request_error',
  unauthenticated: 'authentication_error',
  permission_denied: 'permission_error',
  // a model outside the key's group is a 503 by the seed, but no client may read it as overload and retry
  model_not_in_group: 'permission_error',
  model_not_found: 'not_found_error',
  not_found: 'not_found_error',
  conflict: 'conflict_error',
  payload_too_large: 'request_too_large',
  rate_limited: 'rate_limit_error',
  quota_exhausted: 'billing_error',
  content_policy: 'invalid_request_error',
  upstream_error: 'api_error',
  upstream_unavailable: 'overloaded_error',
  upstream_timeout: 'timeout_error',
  internal: 'api_error',
};

/** Anthropic's own shape, extended with the seed's `param` and `code` strings. */
export const renderAnthropicError: ErrorRenderer = (err) => {
  // Anthropic's own words for an unknown model, which Claude Code shows as its model-not-found message
  const message = err.reason === 'model_not_found' && err.subject !== undefined ? `model: ${err.subject}` : err.message;
  return {
    status: err.status,
    body: { type: 'error', error: { type: ANTHROPIC_TYPES[err.reason], message, param: err.param ?? '', code: err.code } },
  };
};

/** Google's canonical status per reason. */
const GOOGLE_STATUS: Record<ErrorReason, string> = {
  invalid_request: 'INVALID_ARGUMENT',
  unauthenticated: 'UNAUTHENTICATED',
  permission_denied: 'PERMISSION_DENIED',
  model_not_in_group: 'PERMISSION_DENIED',
  model_not_found: 'NOT_FOUND',
  not_found: 'NOT_FOUND',
  conflict: 'ALREADY_EXISTS',
  payload_too_large: 'INVALID_ARGUMENT',
  rate_limited: 'RESOURCE_EXHAUSTED',
  quota_exhausted: 'RESOURCE_EXHAUSTED',
  content_policy: 'INVALID_ARGUMENT',
  upstream_error: 'INTERNAL',
  upstream_unavailable: 'UNAVAILABLE',
  upstream_timeout: 'DEADLINE_EXCEEDED',
  internal: 'INTERNAL',
};

/** `{error:{code, message, status, type, param}}`: Google's numeric code and status plus the seed's fields. */
export const renderGoogleError: ErrorRenderer = (err) => {
  // Google's own words for an unknown model
  const message = err.reason === 'model_not_found' && err.subject !== undefined ? `models/${err.subject} is not found.` : err.message;
  return {
    status: err.status,
    body: { error: { code: err.status, message, status: GOOGLE_STATUS[err.reason], type: err.code, param: err.param ?? '' } },
  };
};
