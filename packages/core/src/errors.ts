export interface ReasonInfo {
  readonly status: number;
  readonly retryable: boolean;
  /**
   * The caller's own request or key settings caused it although the specification answers it with a 5xx: counted
   * with `client_fault="true"` so a platform's 5xx alert leaves it out (docs/operations.md).
   */
  readonly clientFault?: boolean;
}

/**
 * The closed set of failure reasons, each with its HTTP status and retry class. Outbound adapters map upstream
 * failures into it; inbound adapters render it in their own wire shape. Provider-free by design.
 */
const REASONS = {
  invalid_request: { status: 400, retryable: false },
  unauthenticated: { status: 401, retryable: false },
  permission_denied: { status: 403, retryable: false },
  model_not_in_group: { status: 503, retryable: false, clientFault: true },
  model_not_found: { status: 404, retryable: false },
  not_found: { status: 404, retryable: false },
  conflict: { status: 409, retryable: false },
  payload_too_large: { status: 413, retryable: false },
  rate_limited: { status: 429, retryable: true },
  quota_exhausted: { status: 429, retryable: false },
  content_policy: { status: 400, retryable: false },
  upstream_error: { status: 502, retryable: false },
  /** a 2xx answer whose JSON does not have the upstream's shape: the same upstream would answer alike again */
  upstream_malformed_response: { status: 502, retryable: false },
  upstream_unavailable: { status: 503, retryable: true },
  upstream_timeout: { status: 504, retryable: true },
  internal: { status: 500, retryable: false },
} satisfies Record<string, ReasonInfo>;

export type ErrorReason = keyof typeof REASONS;
export const ERROR_REASONS: Readonly<Record<ErrorReason, ReasonInfo>> = Object.freeze(REASONS);

export interface GatewayErrorOptions {
  /** Stable machine-readable code, e.g. `invalid_duration`. Defaults to the reason. */
  code?: string;
  /** The request field at fault, e.g. `parameters.durationSeconds`. */
  param?: string;
  retryAfterSeconds?: number;
  /** The id the failure is about (e.g. the unknown model), for formats that name it in their own words. */
  subject?: string;
  /** Upstream's own status/code, kept for task errors and logs. */
  upstreamStatus?: number;
  upstreamCode?: string;
  /** the provider's request id of the failed call */
  upstreamRequestId?: string;
  /** an excerpt of the upstream's own error text, for operators' logs only: never rendered to callers */
  upstreamMessage?: string;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly reason: ErrorReason;
  readonly code: string;
  readonly param?: string;
  readonly retryAfterSeconds?: number;
  readonly subject?: string;
  readonly upstreamStatus?: number;
  readonly upstreamCode?: string;
  readonly upstreamRequestId?: string;
  readonly upstreamMessage?: string;

  constructor(reason: ErrorReason, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.reason = reason;
    this.code = options.code ?? reason;
    this.param = options.param;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.subject = options.subject;
    this.upstreamStatus = options.upstreamStatus;
    this.upstreamCode = options.upstreamCode;
    this.upstreamRequestId = options.upstreamRequestId;
    this.upstreamMessage = options.upstreamMessage;
  }

  get status(): number {
    return ERROR_REASONS[this.reason].status;
  }

  get retryable(): boolean {
    return ERROR_REASONS[this.reason].retryable;
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}

/** Shorthand for the most common failure: a field the caller got wrong. */
export function invalid(code: string, message: string, param?: string): GatewayError {
  return new GatewayError('invalid_request', message, { code, param });
}

/** Anything that is not a GatewayError becomes an internal error with a neutral message. */
export function toGatewayError(e: unknown): GatewayError {
  if (isGatewayError(e)) return e;
  return new GatewayError('internal', 'The gateway failed to process the request.', { cause: e });
}
