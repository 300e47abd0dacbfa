import { ERROR_REASONS, type ErrorReason } from '@gateway/core';

/** google.rpc.Code numbers for the task error codes that have a closer meaning than INTERNAL. */
const RPC_CODE_OF_TASK_CODE: Readonly<Record<string, number>> = {
  cancelled: 1, // CANCELLED
  expired: 4, // DEADLINE_EXCEEDED
  invalid_request: 3, // INVALID_ARGUMENT
  content_policy: 3,
  permission_denied: 7, // PERMISSION_DENIED
  rate_limited: 8, // RESOURCE_EXHAUSTED
  quota_exhausted: 8,
  upstream_unavailable: 14, // UNAVAILABLE
  upstream_timeout: 4,
  not_found: 5, // NOT_FOUND
};

/** By HTTP status, for a task code named after another reason of the error table. */
const RPC_CODE_OF_STATUS: Readonly<Record<number, number>> = { 400: 3, 401: 16, 403: 7, 404: 5, 409: 6, 413: 3, 429: 8, 503: 14, 504: 4 };
const INTERNAL = 13;

function rpcCodeOf(code: string): number {
  const known = RPC_CODE_OF_TASK_CODE[code];
  if (known !== undefined) return known;
  const reason = ERROR_REASONS[code as ErrorReason];
  return (reason && RPC_CODE_OF_STATUS[reason.status]) ?? INTERNAL;
}

/**
 * A failed operation's `error` as a google.rpc.Status (clients read `code` as a number): the gateway's
 * stable string code stays in an ErrorInfo detail.
 */
export function rpcStatusOf(error: { code: string; message: string }): Record<string, unknown> {
  return {
    code: rpcCodeOf(error.code),
    message: error.message,
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: error.code, domain: 'gateway' }],
  };
}
