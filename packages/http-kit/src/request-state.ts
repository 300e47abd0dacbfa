import type { AuditActor, ErrorReason, Principal } from '@gateway/core';
import type { SessionIdentity, SessionLookup } from './auth';
import type { StreamAdmission } from './sse';
import type { StreamShutdown } from './stream-shutdown';

/**
 * What a request carries between middlewares, typed: express's `res.locals` is declared to hold exactly these
 * fields (as Fastify's decorations are), so a misspelt or mistyped field fails the build instead of reading undefined.
 */
export interface RequestState {
  /** the X-Request-Id answered and logged (request-id.ts) */
  requestId: string;
  /** the key (or session) the request runs as, once authenticated (auth.ts) */
  principal?: Principal;
  /** a key refused for its route or model: logged and counted under it, never run as it */
  refusedPrincipal?: Partial<Principal>;
  /** the model named by a refused request, for its log line */
  requestedModel?: string;
  /** the actor an admin route's check resolved */
  auditActor?: AuditActor;
  /** set by the error middleware for the request's log line and metrics */
  errorCode?: string;
  errorReason?: ErrorReason;
  internalError?: unknown;
  /** single sign-on: how to find the request's session, and the session once found (sso package) */
  sessionLookup?: SessionLookup;
  sessionIdentity?: SessionIdentity;
  /** the platform admin's SSO subject when the session grants it */
  ssoPlatformAdmin?: string;
  /** the request's abort controller, created on first use (request-abort.ts) */
  requestAbort?: AbortController;
  /** the composition root's stream admission, and its one outcome (sse.ts) */
  streamAdmission?: StreamAdmission;
  streamAdmitted?: Promise<boolean>;
  /** the graceful-shutdown guard of an open stream (stream-shutdown.ts) */
  streamShutdown?: StreamShutdown;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Locals extends RequestState {}
  }
}
