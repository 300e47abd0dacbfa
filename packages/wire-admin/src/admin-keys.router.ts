import { jsonBody, jsonContent as json, queryParam, queryParams } from '@gateway/http-kit';
import { adminAs, adminRoute } from './admin-route';
import { key } from './admin-keys.openapi';
import { keyId } from './self-service.openapi';
import { createKeyBody, updateKeyBody } from './admin.request.schema';

/** `?account=`: one account id (a repeated one is refused, not ignored). */
const KEYS_QUERY = queryParams<{ account?: string }>([queryParam('account', "Only this account's keys.")]);

/** The platform admin's key routes (KeyAdministration checks the bodies). */
export const adminKeyRoutes = [
  adminRoute({
    method: 'get',
    path: '/admin/keys',
    summary: 'List keys',
    params: KEYS_QUERY.params,
    query: KEYS_QUERY,
    response: {
      description: 'The keys, without secrets.',
      content: json({ type: 'object', properties: { object: { const: 'list' }, data: { type: 'array', items: key } } }),
    },
    async handle({ deps, query }, _req, res) {
      res.json({ object: 'list', data: await deps.admin.listKeys(query.account) });
    },
  }),
  adminRoute({
    method: 'post',
    path: '/admin/keys',
    summary: 'Create a key',
    description: 'The clear key is in this answer once and never stored. Unknown fields are refused (400 `unknown_field`).',
    body: createKeyBody,
    response: {
      status: 201,
      description: 'The key with `key`.',
      content: json({ ...key, properties: { ...key.properties, key: { type: 'string' } } }),
    },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.status(201).json(await adminAs(ctx, req).createKey(ctx.body));
    },
  }),
  adminRoute({
    method: 'get',
    path: '/admin/keys/{id}',
    summary: 'Read a key',
    params: [keyId],
    response: { description: 'The key.', content: json(key) },
    async handle({ deps }, req, res) {
      res.json(await deps.admin.getKey(String(req.params.id)));
    },
  }),
  adminRoute({
    method: 'patch',
    path: '/admin/keys/{id}',
    summary: "Change a key's name, expiry, allowlist, limits or budget",
    description:
      'Fields left out are kept; within `limits`, so are the limits left out. Applies at once on this instance, within KEY_CACHE_TTL_MS elsewhere.',
    params: [keyId],
    body: updateKeyBody,
    response: { description: 'The key.', content: json(key) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.json(await adminAs(ctx, req).updateKey(String(req.params.id), ctx.body));
    },
  }),
  adminRoute({
    method: 'delete',
    path: '/admin/keys/{id}',
    summary: 'Revoke a key',
    params: [keyId],
    response: {
      description: 'Revoked.',
      content: json({ type: 'object', properties: { id: { type: 'string' }, revoked: { const: true } } }),
    },
    async handle(ctx, req, res) {
      await adminAs(ctx, req).revokeKey(String(req.params.id));
      res.json({ id: req.params.id, revoked: true });
    },
  }),
];
