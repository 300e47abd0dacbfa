import type { Request, RequestHandler, Response } from 'express';
import { minuteCounter, type AuditActor } from '@gateway/core';
import { mountRoutes } from '@gateway/http-kit';
import { rateLimitCounts, type RedisLink } from '@gateway/rate-limit-redis';
import { signInRate, ssoDeps, ssoRoutes, ssoSessionAuth, type AuditedSessionChanges } from '@gateway/sso';
import { errorShapeNamed } from '../wire-formats';
import { importEsm } from '@gateway/provider-kit';
import { publicBaseUrlFor } from '../public-links';
import type { WiringContext } from './context';

/** The audit log over the session store: a person's sessions end in the transaction their audit record is written in. */
function auditedSessionChanges({ stores }: WiringContext): AuditedSessionChanges {
  return {
    run: (ctx, change) =>
      stores.audit.run(ctx, ({ trx }) => change({ endSessionsOf: (subject: string) => stores.ssoSessions.endSessionsOf(subject, trx) })),
  };
}

/** Dashboard single sign-on's routes: /sso/* and, behind the admin API's gate, DELETE /admin/sso/sessions. */
export function ssoRouter(
  ctx: WiringContext,
  deps: { adminGate: (req: Request, res: Response) => AuditActor; redis?: RedisLink },
): RequestHandler {
  const { env, config, stores } = ctx;
  return mountRoutes(
    ssoRoutes,
    ssoDeps({
      oidc: env.oidc,
      sessions: stores.ssoSessions,
      roles: () => config.file.sso?.roles,
      baseUrl: publicBaseUrlFor(env),
      trustProxy: env.trustProxy === true,
      logger: ctx.logger,
      audit: auditedSessionChanges(ctx),
      importModule: importEsm,
      signInRate: signInRate(minuteCounter(rateLimitCounts(deps.redis), 'gw-sso-login')),
    }),
    { authenticate: ctx.authenticate, errorShape: errorShapeNamed, admin: deps.adminGate },
  );
}

/** A dashboard session stands in for a key on the routes whose declaration accepts one. */
export const ssoSessions = (ctx: WiringContext): RequestHandler =>
  ssoSessionAuth({ sessions: ctx.stores.ssoSessions, roles: () => ctx.config.file.sso?.roles }, ctx.env.trustProxy === true);
