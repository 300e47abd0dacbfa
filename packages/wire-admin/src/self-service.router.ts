import type { Request } from 'express';
import {
  accountBounds,
  GatewayError,
  inheritFromCaller,
  roleOf,
  type AccountBoundsDeps,
  type Caller,
  type KeyAdministration,
  type Principal,
} from '@gateway/core';
import { changedBy, jsonBody, jsonContent as json, routeOf, type KeyedContext, type Route } from '@gateway/http-kit';
import { auditFilter, auditQuery, sendAudit } from './audit-view';
import { auditList, auditParams, bounds, keyId, touchBounds, withSecret } from './self-service.openapi';
import { key } from './admin-keys.openapi';
import { rotateBody, selfServiceCreateBody, selfServiceUpdateBody } from './admin.request.schema';

export interface SelfServiceDeps extends AccountBoundsDeps {
  admin: KeyAdministration;
  clock: () => Date;
}

type Ctx = KeyedContext<SelfServiceDeps>;

/** Key administration acting for the caller's key: its changes are audited under that key. */
const adminAs = (ctx: Ctx, req: Request) => ctx.deps.admin.as(changedBy(ctx, req));

/** The key, when it belongs to the caller's account; otherwise the same 404 as a key that does not exist. */
async function ownKey({ deps, principal }: Ctx, id: string) {
  const k = await deps.admin.keyRecord(id).catch(() => null);
  if (!k || k.accountId !== principal.accountId)
    throw new GatewayError('not_found', `No key "${id.slice(0, 64)}".`, { code: 'key_not_found' });
  return k;
}

/** The caller's key as stored now (the principal is a cached copy): the bounds of everything it does here. */
async function callerOf({ deps, principal, actor }: Ctx): Promise<Caller> {
  // A person signed in as the account's admin (sso.roles) holds no key: their bounds are the account's own.
  if (actor.type === 'sso') return { key: accountWide(principal), budget: { keyId: principal.keyId, limit: null, used: 0, period: null } };
  return { key: await deps.admin.keyRecord(principal.keyId), budget: await deps.quotas.getKey(principal.keyId) };
}

/** What an unrestricted key of the principal's account and group may do. */
const accountWide = (principal: Principal): Caller['key'] => ({
  id: principal.keyId,
  role: 'admin',
  accountId: principal.accountId,
  group: principal.group,
  prefix: '',
  name: null,
  createdAt: new Date(0),
  revokedAt: null,
  expiresAt: null,
  models: null,
  limits: { requestsPerMinute: null, tokensPerMinute: null, concurrentStreams: null },
  tasks: 'account',
});

/** The bounds of a write by the caller: what the platform admin granted its key and its account. */
const boundsOf = async (ctx: Ctx) => accountBounds(ctx.deps, await callerOf(ctx));

type AdminKeyed = { kind: 'api-key'; role: 'admin'; session: true };
const declare = routeOf<SelfServiceDeps>();
/** Every self-service route: an account admin's key (or dashboard session), OpenAI's error shape. */
const route = <B = unknown, Q = unknown>(r: Omit<Route<SelfServiceDeps, AdminKeyed, B, Q>, 'format' | 'auth' | 'errors'>) =>
  declare<AdminKeyed, B, Q>({ ...r, format: 'self-service', auth: { kind: 'api-key', role: 'admin', session: true }, errors: 'openai' });

/**
 * The account's own keys and audit slice, for its account admins (`role: 'admin'` on each declaration: requireKey
 * refuses a member key with 403 `forbidden_role`). Everything goes through KeyAdministration, within the bounds the
 * platform admin granted the account (account-bounds.ts); a key of another account is a 404.
 */
export const selfServiceRoutes = [
  // any key: who the caller is, so a client (the dashboard) shows only what the key may do
  declare<{ kind: 'api-key'; role: 'member' }>({
    method: 'get',
    path: '/v1/me',
    summary: 'The calling key: its account, group, role and allowlist',
    description: 'Any key of the account may ask (a client such as the dashboard shows only what the key may do).',
    format: 'self-service',
    auth: { kind: 'api-key', role: 'member' },
    errors: 'openai',
    response: {
      description: 'The key (never its secret).',
      content: json({
        type: 'object',
        properties: {
          object: { const: 'api_key.self' },
          key_id: { type: 'string' },
          account: { type: 'string' },
          group: { type: 'string' },
          role: { enum: ['admin', 'member'] },
          models: { type: ['array', 'null'], items: { type: 'string' } },
          tasks: { enum: ['account', 'own'] },
        },
      }),
    },
    handle({ principal: p }, _req, res) {
      res.json({
        object: 'api_key.self',
        key_id: p.keyId,
        account: p.accountId,
        group: p.group,
        role: roleOf(p),
        models: p.models ? [...p.models] : null,
        tasks: p.tasks ?? 'account',
      });
    },
  }),
  route({
    method: 'get',
    path: '/v1/keys',
    summary: "List the account's keys",
    response: {
      description: 'The keys (never their secrets).',
      content: json({ type: 'object', properties: { data: { type: 'array', items: key } } }),
    },
    async handle({ deps, principal }, _req, res) {
      res.json({ object: 'list', data: await deps.admin.listKeys(principal.accountId) });
    },
  }),
  route({
    method: 'post',
    path: '/v1/keys',
    summary: "Create a key in the caller's account",
    description: `As POST /admin/keys without \`account\` (the caller's own). Without \`group\`: the caller's group; without \`models\`: the caller's allowlist. ${bounds}`,
    body: selfServiceCreateBody,
    response: { status: 201, description: 'The key with `key`, shown once.', content: withSecret },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      const caller = await callerOf(ctx);
      const body = {
        ...inheritFromCaller(ctx.body, caller, true),
        account: caller.key.accountId,
        group: ctx.body.group ?? caller.key.group,
      };
      res.status(201).json(await adminAs(ctx, req).createKey(body, accountBounds(ctx.deps, caller)));
    },
  }),
  route({
    method: 'patch',
    path: '/v1/keys/{id}',
    summary: "Change a key's role, name, expiry, allowlist, limits or budget",
    description: `Fields left out are kept. ${bounds} A key of another account: 404.`,
    params: [keyId],
    body: selfServiceUpdateBody,
    response: { description: 'The key.', content: json(key) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      await ownKey(ctx, String(req.params.id));
      const caller = await callerOf(ctx);
      const body = inheritFromCaller(ctx.body, caller, false);
      res.json(await adminAs(ctx, req).updateKey(String(req.params.id), body, accountBounds(ctx.deps, caller)));
    },
  }),
  route({
    method: 'post',
    path: '/v1/keys/{id}/rotate',
    summary: 'Give a key a new secret',
    description: `Answers the new secret once; the old secret keeps working for \`grace_seconds\`, then stops (401). ${touchBounds}`,
    params: [keyId],
    body: rotateBody,
    response: {
      description: 'The key with its new `key` and `previous_secret_until`.',
      content: json({ ...key, properties: { ...key.properties, key: { type: 'string' }, previous_secret_until: { type: 'string' } } }),
    },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      await ownKey(ctx, String(req.params.id));
      const graceUntil = new Date(ctx.deps.clock().getTime() + ctx.body.grace_seconds * 1000);
      res.json(await adminAs(ctx, req).rotateKey(String(req.params.id), graceUntil, await boundsOf(ctx)));
    },
  }),
  route({
    method: 'delete',
    path: '/v1/keys/{id}',
    summary: 'Revoke a key',
    description: touchBounds,
    params: [keyId],
    response: {
      description: 'Revoked.',
      content: json({
        type: 'object',
        properties: { object: { const: 'api_key.revoked' }, id: { type: 'string' }, revoked: { const: true } },
      }),
    },
    async handle(ctx, req, res) {
      await ownKey(ctx, String(req.params.id));
      await adminAs(ctx, req).revokeKey(String(req.params.id), await boundsOf(ctx));
      res.json({ object: 'api_key.revoked', id: String(req.params.id), revoked: true });
    },
  }),
  route({
    method: 'get',
    path: '/v1/audit',
    summary: "The account's audit records",
    description: 'Changes to this account (its keys, quota, budgets), newest first. Read-only: no route edits or deletes a record.',
    params: auditParams,
    query: auditQuery,
    response: { description: 'The records.', content: auditList },
    async handle({ deps, principal, query }, _req, res) {
      sendAudit(query, res, await deps.admin.auditLog({ ...auditFilter(query, 'account'), accountId: principal.accountId }), 'account');
    },
  }),
];
