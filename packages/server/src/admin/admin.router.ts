import { Router, type Request, type RequestHandler, type Response } from 'express';
import { digestsEqual, GatewayError, hashApiKey, type AccountQuota, type AuditContext, type UsageQuery } from '@gateway/core';
import { adminUsageHandler, adminUsageLatencyHandler, adminUsageRequestsHandler } from '@gateway/wire-usage';
import { errorMiddleware, extractKey, jsonBody, openAiErrorShape } from '@gateway/http-kit';
import type { ConfigKind } from '@gateway/store-postgres';
import type { AdminService } from './admin-service';
import { auditFilter, sendAudit } from './audit-view';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Every /admin route needs GATEWAY_ADMIN_KEY as a bearer token; without one configured the API is off. The local
 * token (the CLI's, from DATA_DIR's credential file) is accepted too, from loopback callers only, and so is a
 * platform admin's single sign-on session (sso/sso-session.ts sets res.locals.ssoPlatformAdmin to its subject).
 */
export function requireAdmin(adminKey: string | undefined, localToken?: string): RequestHandler {
  const expected = adminKey ? hashApiKey(adminKey) : null;
  const local = localToken ? hashApiKey(localToken) : null;
  return (req, res, next) => {
    const presented = extractKey(req);
    const ssoSubject = res.locals.ssoPlatformAdmin as string | undefined;
    if (!presented && ssoSubject) {
      res.locals.auditActor = { type: 'sso', id: ssoSubject };
      return next();
    }
    if (local && presented && LOOPBACK.has(req.socket.remoteAddress ?? '') && digestsEqual(hashApiKey(presented), local)) {
      res.locals.auditActor = { type: 'cli', id: 'cli' };
      return next();
    }
    if (!expected)
      return next(new GatewayError('permission_denied', 'The admin API is disabled: set GATEWAY_ADMIN_KEY.', { code: 'admin_disabled' }));
    if (!presented || !digestsEqual(hashApiKey(presented), expected))
      return next(new GatewayError('unauthenticated', 'The admin API needs the admin key.', { code: 'invalid_admin_key' }));
    res.locals.auditActor = { type: 'admin_key', id: 'admin' };
    next();
  };
}

/** Who made an admin change, for its audit record: the admin key, the CLI through its local token, or a signed-on person. */
export const adminContext = (req: Request, res: Response): AuditContext => ({
  actor: (res.locals.auditActor as AuditContext['actor'] | undefined) ?? { type: 'admin_key', id: 'admin' },
  requestId: (res.locals.requestId as string | undefined) ?? null,
  address: req.socket.remoteAddress ?? null,
});

const quotaBody = (q: AccountQuota) => ({
  account: q.accountId,
  credit_limit: q.limit,
  credits_used: q.used,
  period: q.period,
});

const KINDS: Record<string, ConfigKind> = { providers: 'provider', models: 'model', groups: 'group' };

export function adminRouter(service: AdminService, usage: UsageQuery, adminKey: string | undefined, localToken?: string): Router {
  const router = Router();
  const checkAdmin = requireAdmin(adminKey, localToken);
  // the service each route uses records the caller as the author of its changes
  const guard: RequestHandler = (req, res, next) =>
    checkAdmin(req, res, (e?: unknown) => {
      if (e) return next(e);
      res.locals.admin = service.as(adminContext(req, res));
      next();
    });
  const json = jsonBody();
  const adminOf = (res: Response) => res.locals.admin as AdminService;
  router.get('/admin/accounts', guard, async (_req, res) => {
    res.json({ object: 'list', data: await adminOf(res).listAccounts() });
  });
  router.post('/admin/accounts', guard, json, async (req, res) => {
    res.status(201).json(await adminOf(res).createAccount(req.body.id, req.body.name));
  });
  router.get('/admin/accounts/:id', guard, async (req, res) => {
    res.json(await adminOf(res).getAccount(String(req.params.id)));
  });
  router.get('/admin/accounts/:id/quota', guard, async (req, res) => {
    res.json(quotaBody(await adminOf(res).getQuota(String(req.params.id))));
  });
  router.put('/admin/accounts/:id/quota', guard, json, async (req, res) => {
    res.json(quotaBody(await adminOf(res).setQuota(String(req.params.id), req.body.credit_limit, req.body.period)));
  });
  router.get('/admin/audit', guard, async (req, res) => {
    sendAudit(req, res, await adminOf(res).auditLog(auditFilter(req)));
  });
  router.get('/admin/usage', guard, adminUsageHandler(usage));
  router.get('/admin/usage/requests', guard, adminUsageRequestsHandler(usage));
  router.get('/admin/usage/latency', guard, adminUsageLatencyHandler(usage));
  router.get('/admin/keys', guard, async (req, res) => {
    const account = typeof req.query.account === 'string' ? req.query.account : undefined;
    res.json({ object: 'list', data: await adminOf(res).listKeys(account) });
  });
  router.post('/admin/keys', guard, json, async (req, res) => {
    res.status(201).json(await adminOf(res).createKey(req.body));
  });
  router.get('/admin/keys/:id', guard, async (req, res) => {
    res.json(await adminOf(res).getKey(String(req.params.id)));
  });
  router.patch('/admin/keys/:id', guard, json, async (req, res) => {
    res.json(await adminOf(res).updateKey(String(req.params.id), req.body));
  });
  router.delete('/admin/keys/:id', guard, async (req, res) => {
    await adminOf(res).revokeKey(String(req.params.id));
    res.json({ id: req.params.id, revoked: true });
  });
  for (const [path, kind] of Object.entries(KINDS)) {
    router.get(`/admin/${path}`, guard, async (_req, res) => {
      res.json({ object: 'list', data: await adminOf(res).listEntries(kind) });
    });
    router.put(`/admin/${path}/:id`, guard, json, async (req, res) => {
      res.json(await adminOf(res).putEntry(kind, String(req.params.id), req.body));
    });
    router.delete(`/admin/${path}/:id`, guard, async (req, res) => {
      await adminOf(res).deleteEntry(kind, String(req.params.id));
      res.json({ id: req.params.id, deleted: true });
    });
  }
  router.use('/admin', errorMiddleware(openAiErrorShape.render));
  return router;
}
