import { Router, type Request, type Response } from 'express';
import { GatewayError, invalid, roleOf, type AuditContext, type Principal } from '@gateway/core';
import { actorOf, errorMiddleware, jsonBody, openAiErrorShape, principalOf, requireKey, type Authenticator } from '@gateway/http-kit';
import type { AdminService } from '../admin/admin-service';
import { auditFilter, sendAudit } from '../admin/audit-view';
import { accountBounds, type AccountBoundsDeps } from './account-bounds';

export interface SelfServiceDeps extends AccountBoundsDeps {
  authenticate: Authenticator;
  admin: AdminService;
  clock: () => Date;
}

/** A rotated key's old secret works at most this long. */
const MAX_GRACE_SECONDS = 30 * 24 * 3600;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const contextOf = (req: Request, res: Response): AuditContext => ({
  actor: actorOf(res),
  requestId: (res.locals.requestId as string | undefined) ?? null,
  address: req.socket.remoteAddress ?? null,
});

/**
 * The account's own keys and audit slice, for its account admins (the role rule is on the route docs,
 * self-service.openapi.ts, and enforced by role-guard.ts). Everything goes through AdminService, within the bounds
 * the platform admin granted the account (account-bounds.ts); a key of another account is a 404.
 */
export function selfServiceRouter(deps: SelfServiceDeps): Router {
  const router = Router();
  const auth = requireKey(deps.authenticate);
  const json = jsonBody();
  const admin = (req: Request, res: Response) => deps.admin.as(contextOf(req, res));

  /** The key, when it belongs to the caller's account; otherwise the same 404 as a key that does not exist. */
  const ownKey = async (res: Response, id: string) => {
    const k = await deps.admin.keyRecord(id).catch(() => null);
    if (!k || k.accountId !== principalOf(res).accountId)
      throw new GatewayError('not_found', `No key "${id.slice(0, 64)}".`, { code: 'key_not_found' });
    return k;
  };

  // any key: who the caller is, so a client (the dashboard) shows only what the key may do
  router.get('/v1/me', auth, (_req, res) => {
    const p = principalOf(res);
    res.json({
      object: 'api_key.self',
      key_id: p.keyId,
      account: p.accountId,
      group: p.group,
      role: roleOf(p),
      models: p.models ? [...p.models] : null,
      tasks: p.tasks ?? 'account',
    });
  });

  router.get('/v1/keys', auth, async (_req, res) => {
    res.json({ object: 'list', data: await deps.admin.listKeys(principalOf(res).accountId) });
  });

  router.post('/v1/keys', auth, json, async (req, res) => {
    const p = principalOf(res);
    if (!isObject(req.body)) throw invalid('invalid_body', 'The key must be a JSON object.');
    if ('account' in req.body)
      throw invalid('unknown_field', 'Unknown field "account": a key made here belongs to the caller\'s own account.', 'account');
    const body = {
      ...req.body,
      account: p.accountId,
      group: req.body.group ?? p.group,
      // an account admin whose key is narrowed to some models hands out no wider key
      ...(req.body.models === undefined && p.models ? { models: [...p.models] } : {}),
    };
    res.status(201).json(await admin(req, res).createKey(body, accountBounds(deps, p)));
  });

  router.patch('/v1/keys/:id', auth, json, async (req, res) => {
    await ownKey(res, String(req.params.id));
    res.json(await admin(req, res).updateKey(String(req.params.id), req.body, accountBounds(deps, principalOf(res))));
  });

  router.post('/v1/keys/:id/rotate', auth, json, async (req, res) => {
    await ownKey(res, String(req.params.id));
    const grace = isObject(req.body) ? req.body.grace_seconds : undefined;
    if (typeof grace !== 'number' || !Number.isInteger(grace) || grace < 0 || grace > MAX_GRACE_SECONDS)
      throw invalid(
        'invalid_grace_seconds',
        `"grace_seconds" must be a whole number of seconds from 0 to ${MAX_GRACE_SECONDS}: how long the old secret keeps working.`,
        'grace_seconds',
      );
    const graceUntil = new Date(deps.clock().getTime() + grace * 1000);
    res.json(await admin(req, res).rotateKey(String(req.params.id), graceUntil));
  });

  router.delete('/v1/keys/:id', auth, async (req, res) => {
    await ownKey(res, String(req.params.id));
    await admin(req, res).revokeKey(String(req.params.id));
    res.json({ object: 'api_key.revoked', id: String(req.params.id), revoked: true });
  });

  router.get('/v1/audit', auth, async (req, res) => {
    sendAudit(req, res, await deps.admin.auditLog({ ...auditFilter(req), accountId: principalOf(res).accountId }));
  });

  router.use(['/v1/me', '/v1/keys', '/v1/audit'], errorMiddleware(openAiErrorShape.render));
  return router;
}
