import type { ParamDoc, RouteDoc, SchemaDoc } from '@gateway/http-kit';
import { configSchema } from '../config.schema';
import { adminKeyRoutes } from './admin-keys.openapi';
import { adminWebhookRoutes } from './admin-webhooks.openapi';

/**
 * The /admin API as documented in /openapi.json. Bodies of the catalogue routes are the config file's own entry
 * schemas (the path carries the id); AdminService checks accounts and keys by hand, described here.
 */
const auth = { kind: 'admin-key' } as const;
const id = (what: string): ParamDoc => ({ name: 'id', in: 'path', required: true, description: what, schema: { type: 'string' } });
const list = (items: SchemaDoc = { type: 'object' }) => ({
  type: 'object',
  required: ['object', 'data'],
  properties: { object: { const: 'list' }, data: { type: 'array', items } },
});
const json = (schema: SchemaDoc) => ({ 'application/json': schema });

/** A config entry as a PUT body: the id/name comes from the path. */
function entryBody(items: { required: readonly string[] }): SchemaDoc {
  return { ...items, required: items.required.filter((f) => f !== 'id' && f !== 'name') };
}

const CATALOGUE = [
  ['providers', 'provider', entryBody(configSchema.properties.providers.items)],
  ['models', 'model', entryBody(configSchema.properties.models.items)],
  ['groups', 'group', entryBody(configSchema.properties.groups.items)],
] as const;

const account = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, createdAt: { type: 'string' } },
};
const quota = {
  type: 'object',
  required: ['account', 'credit_limit', 'credits_used'],
  properties: {
    account: { type: 'string' },
    credit_limit: { type: ['number', 'null'] },
    credits_used: { type: 'number', description: 'In the current period.' },
    period: { enum: ['daily', 'monthly', null] },
  },
};
const route = (r: Omit<RouteDoc, 'format' | 'auth' | 'errors'>): RouteDoc => ({ ...r, format: 'admin', auth, errors: 'openai' });

export const adminRoutes: RouteDoc[] = [
  route({
    method: 'get',
    path: '/admin/accounts',
    summary: 'List accounts',
    response: { description: 'The accounts.', content: json(list(account)) },
  }),
  route({
    method: 'post',
    path: '/admin/accounts',
    summary: 'Create an account',
    body: {
      content: json({
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' }, name: { type: 'string', maxLength: 200 } },
      }),
    },
    response: { status: 201, description: 'The account.', content: json(account) },
  }),
  route({
    method: 'get',
    path: '/admin/accounts/{id}',
    summary: 'Read an account',
    params: [id('The account id.')],
    response: { description: 'The account.', content: json(account) },
  }),
  route({
    method: 'get',
    path: '/admin/accounts/{id}/quota',
    summary: "Read an account's credit quota",
    params: [id('The account id.')],
    response: { description: 'Limit and use.', content: json(quota) },
  }),
  route({
    method: 'put',
    path: '/admin/accounts/{id}/quota',
    summary: "Set an account's credit limit",
    params: [id('The account id.')],
    body: {
      content: json({
        type: 'object',
        required: ['credit_limit'],
        properties: {
          credit_limit: { type: ['number', 'null'], minimum: 0, description: 'null: unlimited.' },
          period: {
            enum: ['daily', 'monthly', null],
            description: 'When used credits start again from zero (UTC); null: never; absent: kept.',
          },
        },
      }),
    },
    response: { description: 'Limit and use.', content: json(quota) },
  }),
  ...adminKeyRoutes,
  ...adminWebhookRoutes,
  ...CATALOGUE.flatMap(([path, kind, body]): RouteDoc[] => [
    route({
      method: 'get',
      path: `/admin/${path}`,
      summary: `List ${path}`,
      response: { description: `The ${path}, file and admin entries.`, content: json(list()) },
    }),
    route({
      method: 'put',
      path: `/admin/${path}/{id}`,
      summary: `Create or replace a ${kind}`,
      description: 'Checked against the whole resulting config; applies at once here and within CONFIG_POLL_MS elsewhere.',
      params: [id(`The ${kind} ${kind === 'group' ? 'name' : 'id'}.`)],
      body: { content: json(body) },
      response: { description: `The stored ${kind} (secrets redacted).`, content: json({ type: 'object' }) },
    }),
    route({
      method: 'delete',
      path: `/admin/${path}/{id}`,
      summary: `Delete a ${kind}`,
      params: [id(`The ${kind} ${kind === 'group' ? 'name' : 'id'}.`)],
      response: {
        description: 'Deleted.',
        content: json({ type: 'object', properties: { id: { type: 'string' }, deleted: { const: true } } }),
      },
    }),
  ]),
];
