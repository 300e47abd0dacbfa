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

/** Google's detail types (google.rpc): the gateway's stable code as an ErrorInfo, the field at fault as a BadRequest. */
export const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
export const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';
export const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
/** The ErrorInfo `domain` of the gateway's own codes. */
export const GATEWAY_ERROR_DOMAIN = 'gateway';

/**
 * `{error:{code, message, status, details}}`, Google's fields only: the numeric code and status, and in `details` the
 * gateway's stable code (ErrorInfo `reason`) and, when a field is at fault, a BadRequest naming it.
 */
export const googleErrorShape: ErrorShape = {
  name: 'google',
  schemaName: 'GoogleError',
  schema: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'status', 'details'],
        additionalProperties: false,
        properties: {
          code: { type: 'integer' },
          message: str,
          status: str,
          details: { type: 'array', items: { type: 'object', required: ['@type'], properties: { '@type': str } } },
        },
      },
    },
  },
  render: tableRenderer(GOOGLE_STATUS, (err, status) => ({
    error: {
      code: err.status,
      // Google's own words for an unknown model
      message: err.reason === 'model_not_found' && err.subject !== undefined ? `models/${err.subject} is not found.` : err.message,
      status,
      details: [
        { '@type': ERROR_INFO, reason: err.code, domain: GATEWAY_ERROR_DOMAIN },
        ...(err.param ? [{ '@type': BAD_REQUEST, fieldViolations: [{ field: err.param, description: err.message }] }] : []),
        // Gemini CLI waits as long as a RetryInfo says
        ...(err.retryAfterSeconds !== undefined ? [{ '@type': RETRY_INFO, retryDelay: `${err.retryAfterSeconds}s` }] : []),
      ],
    },
  })),
};

/** The gateway's code and the field at fault, read back from a Google error body (tests, clients). */
export function googleErrorParts(body: { error?: { details?: Array<Record<string, any>> } }): { code?: string; param?: string } {
  const details = body.error?.details ?? [];
  return {
    code: details.find((d) => d['@type'] === ERROR_INFO)?.reason,
    param: details.find((d) => d['@type'] === BAD_REQUEST)?.fieldViolations?.[0]?.field,
  };
}
