import type { ErrorReason } from '@gateway/core';
import { tableRenderer, type ErrorShape } from '@gateway/http-kit';
import { THREAD_ERROR_CODES } from './messages.thread';

const str = { type: 'string' } as const;

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
  upstream_malformed_response: 'api_error',
  upstream_unavailable: 'overloaded_error',
  upstream_timeout: 'timeout_error',
  internal: 'api_error',
};

/** Anthropic's own shape, extended with the seed's `param` and `code` strings. */
export const anthropicErrorShape: ErrorShape = {
  name: 'anthropic',
  schemaName: 'AnthropicError',
  schema: {
    type: 'object',
    required: ['type', 'error'],
    properties: {
      type: { const: 'error' },
      error: {
        type: 'object',
        required: ['type', 'message', 'param', 'code'],
        properties: {
          type: str,
          message: str,
          param: str,
          code: str,
          // Anthropic's own, on the errors the SDK acts on (thread errors): `{error_code}`
          details: { type: 'object', required: ['error_code'], properties: { error_code: str } },
        },
      },
    },
  },
  render: tableRenderer(ANTHROPIC_TYPES, (err, type) => ({
    type: 'error',
    // Anthropic's own words for an unknown model, which Claude Code shows as its model-not-found message
    error: {
      type,
      message: err.reason === 'model_not_found' && err.subject !== undefined ? `model: ${err.subject}` : err.message,
      param: err.param ?? '',
      code: err.code,
      // the SDK replays the history under a new thread, or falls back to no thread, on these codes
      ...(THREAD_ERROR_CODES.has(err.code) ? { details: { error_code: err.code } } : {}),
    },
  })),
};
