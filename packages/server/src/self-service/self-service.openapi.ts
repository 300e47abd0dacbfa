import type { ParamDoc, RouteDoc, SchemaDoc } from '@gateway/http-kit';
import { key, settings } from '../admin/admin-keys.openapi';

/**
 * The account admins' own routes as documented in /openapi.json. `role: 'admin'` is the role rule itself:
 * role-guard.ts refuses a member key on these routes (403 `forbidden_role`).
 */
const json = (schema: SchemaDoc) => ({ 'application/json': schema });
const route = (r: Omit<RouteDoc, 'format' | 'auth' | 'errors'>): RouteDoc => ({
  ...r,
  format: 'self-service',
  auth: { kind: 'api-key', role: 'admin' },
  errors: 'openai',
});
const keyId: ParamDoc = { name: 'id', in: 'path', required: true, description: 'The key id.', schema: { type: 'string' } };
const query = (name: string, description: string): ParamDoc => ({ name, in: 'query', description, schema: { type: 'string' } });
const bounds =
  "Within the account's bounds: the caller's group (`exceeds_group`), the caller's model allowlist (`exceeds_allowlist`), the account's credit quota (`exceeds_quota`) and rate-limit ceilings (`exceeds_rate_limit`): 400 naming the bound.";
const withSecret = json({
  ...key,
  properties: { ...key.properties, key: { type: 'string', description: 'The secret, shown this once.' } },
});

export const auditRecord = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    at: { type: 'string', description: 'ISO 8601.' },
    actor: { type: 'object', properties: { type: { enum: ['admin_key', 'key', 'cli', 'sso'] }, id: { type: 'string' } } },
    action: { type: 'string', description: '`<target type>.<verb>`: `key.create`, `key.rotate`, `account.update`, …' },
    target: { type: 'object', properties: { type: { type: 'string' }, id: { type: 'string' } } },
    account: { type: ['string', 'null'] },
    before: { description: 'The target before the change (secrets masked); null for a creation.' },
    after: { description: 'The target after the change (secrets masked); null for a deletion.' },
    request_id: { type: ['string', 'null'] },
    address: { type: ['string', 'null'] },
  },
};

export const auditParams: ParamDoc[] = [
  query('actor', 'An actor id, or `type:id` (`key:key_…`, `admin_key:admin`, `cli:cli`).'),
  query('action', 'An action, e.g. `key.create`.'),
  query('target', 'A target id, or `type:id`.'),
  query('from', 'From this instant (ISO 8601 or Unix seconds), inclusive.'),
  query('to', 'Before this instant.'),
  query('limit', 'At most this many records, newest first (default 1000, up to 10000).'),
  query('export', '`csv` for CSV (before/after as JSON text).'),
];

export const auditList = json({ type: 'object', properties: { object: { const: 'list' }, data: { type: 'array', items: auditRecord } } });

export const selfServiceRoutes: RouteDoc[] = [
  {
    ...route({
      method: 'get',
      path: '/v1/me',
      summary: 'The calling key: its account, group, role and allowlist',
      description: 'Any key of the account may ask (a client such as the dashboard shows only what the key may do).',
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
    }),
    auth: { kind: 'api-key', role: 'member' },
  },
  route({
    method: 'get',
    path: '/v1/keys',
    summary: "List the account's keys",
    response: {
      description: 'The keys (never their secrets).',
      content: json({ type: 'object', properties: { data: { type: 'array', items: key } } }),
    },
  }),
  route({
    method: 'post',
    path: '/v1/keys',
    summary: "Create a key in the caller's account",
    description: `As POST /admin/keys without \`account\` (the caller's own). Without \`group\`: the caller's group; without \`models\`: the caller's allowlist. ${bounds}`,
    body: {
      required: true,
      content: json({ type: 'object', additionalProperties: false, properties: { group: { type: 'string' }, ...settings } }),
    },
    response: { status: 201, description: 'The key with `key`, shown once.', content: withSecret },
  }),
  route({
    method: 'patch',
    path: '/v1/keys/{id}',
    summary: "Change a key's role, name, expiry, allowlist, limits or budget",
    description: `Fields left out are kept. ${bounds} A key of another account: 404.`,
    params: [keyId],
    body: { content: json({ type: 'object', additionalProperties: false, properties: settings }) },
    response: { description: 'The key.', content: json(key) },
  }),
  route({
    method: 'post',
    path: '/v1/keys/{id}/rotate',
    summary: 'Give a key a new secret',
    description: 'Answers the new secret once; the old secret keeps working for `grace_seconds`, then stops (401).',
    params: [keyId],
    body: {
      required: true,
      content: json({
        type: 'object',
        required: ['grace_seconds'],
        properties: { grace_seconds: { type: 'integer', minimum: 0, maximum: 2592000 } },
      }),
    },
    response: {
      description: 'The key with its new `key` and `previous_secret_until`.',
      content: json({ ...key, properties: { ...key.properties, key: { type: 'string' }, previous_secret_until: { type: 'string' } } }),
    },
  }),
  route({
    method: 'delete',
    path: '/v1/keys/{id}',
    summary: 'Revoke a key',
    params: [keyId],
    response: {
      description: 'Revoked.',
      content: json({
        type: 'object',
        properties: { object: { const: 'api_key.revoked' }, id: { type: 'string' }, revoked: { const: true } },
      }),
    },
  }),
  route({
    method: 'get',
    path: '/v1/audit',
    summary: "The account's audit records",
    description: 'Changes to this account (its keys, quota, budgets), newest first. Read-only: no route edits or deletes a record.',
    params: auditParams,
    response: { description: 'The records.', content: auditList },
  }),
];
