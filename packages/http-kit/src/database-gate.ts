import type { RequestHandler, Request } from 'express';
import { GatewayError } from '@gateway/core';
import { sendError } from './error-middleware';
import type { ErrorRenderer } from './error-shape';

/** Paths that must answer whatever the database's state: liveness, readiness, metrics. */
const UNGATED = new Set(['/healthz', '/readyz', '/metrics']);

/** While the database is down, every request that needs it gets a 503 at once, in the format of its path. */
export function databaseGate(health: { healthy(): boolean }, render: (path: string, req: Request) => ErrorRenderer): RequestHandler {
  return (req, res, next) => {
    if (health.healthy() || UNGATED.has(req.path)) return next();
    sendError(
      res,
      new GatewayError('upstream_unavailable', 'The gateway database is unreachable; retry shortly.', {
        code: 'database_unavailable',
        retryAfterSeconds: 1,
      }),
      render(req.path, req),
    );
  };
}
