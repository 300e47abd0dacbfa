import type { ErrorReason } from '@gateway/core';
import { tableRenderer, type ErrorShape } from '@gateway/http-kit';

const str = { type: 'string' } as const;

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
  upstream_malformed_response: 'INTERNAL',
  upstream_unavailable: 'UNAVAILABLE',
  upstream_timeout: 'DEADLINE_EXCEEDED',
  internal: 'INTERNAL',
};

/** `{error:{code, message, status, type, param}}`: Google's numeric code and status plus the seed's fields. */
export const googleErrorShape: ErrorShape = {
  name: 'google',
  schemaName: 'GoogleError',
  schema: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'status', 'type', 'param'],
        properties: { code: { type: 'integer' }, message: str, status: str, type: str, param: str },
      },
    },
  },
  render: tableRenderer(GOOGLE_STATUS, (err, status) => ({
    // Google's own words for an unknown model
    error: {
      code: err.status,
      message: err.reason === 'model_not_found' && err.subject !== undefined ? `models/${err.subject} is not found.` : err.message,
      status,
      type: err.code,
      param: err.param ?? '',
    },
  })),
};
