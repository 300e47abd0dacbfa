import type { ErrorReason } from '@gateway/core';
import { tableRenderer, type ErrorShape } from './error-shape';

/**
 * The error shapes several wire packages speak, kept once here because wire packages never import each other:
 * OpenAI's (the whole OpenAI family: chat, images, responses, videos, usage, and the server's own operator routes)
 * and the vendor-neutral `{code, message}` (the long-running video operations and the task API). A shape only one
 * format defines (Anthropic's, Google's) lives in that format's package; docs/architecture.md says why.
 */

const str = { type: 'string' } as const;

/** OpenAI's `error.type` for each reason, for every OpenAI-shaped endpoint. */
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
  upstream_malformed_response: 'upstream_error',
  upstream_unavailable: 'service_unavailable',
  upstream_timeout: 'timeout_error',
  internal: 'server_error',
};

/** `{error:{message,type,param,code}}`, every value a string. */
export const openAiErrorShape: ErrorShape = {
  name: 'openai',
  schemaName: 'OpenAiError',
  schema: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['message', 'type', 'param', 'code'],
        properties: { message: str, type: str, param: str, code: str },
      },
    },
  },
  render: tableRenderer(OPENAI_TYPES, (err, type) => ({ error: { message: err.message, type, param: err.param ?? '', code: err.code } })),
};

/** `{code, message}`: the long-running-operation creation and task-read endpoints. */
export const codeMessageErrorShape: ErrorShape = {
  name: 'code-message',
  schemaName: 'CodeMessageError',
  schema: { type: 'object', required: ['code', 'message'], properties: { code: str, message: str } },
  render: (err) => ({ status: err.status, body: { code: err.code, message: err.message } }),
};
