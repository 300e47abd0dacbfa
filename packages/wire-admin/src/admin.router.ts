import type { AccountQuota } from '@gateway/core';
import { jsonBody, jsonContent as json, pathParam, type SchemaDoc } from '@gateway/http-kit';
import { adminAs, adminRoute, catalogueAs, type CatalogueKind } from './admin-route';
import { createAccountBody, setQuotaBody, updateAccountBody } from './admin.request.schema';
import { auditFilter, auditQuery, sendAudit } from './audit-view';
import { auditList, auditParams } from './self-service.openapi';

const list = (items: SchemaDoc = { type: 'object' }) => ({
  type: 'object',
  required: ['object', 'data'],
  properties: { object: { const: 'list' }, data: { type: 'array', items } },
});

/** A config entry as a PUT body: the id/name comes from the path. */
function entryBody(items: { required: readonly string[] }): SchemaDoc {
  return { ...items, required: items.required.filter((f) => f !== 'id' && f !== 'name') };
}

/** The config file's own entry schemas, which the catalogue routes take (the composition root owns the config schema). */
export interface CatalogueSchemas {
  providers: { required: readonly string[] };
  models: { required: readonly string[] };
  groups: { required: readonly string[] };
}

const CATALOGUE_PATHS: ReadonlyArray<readonly ['providers' | 'models' | 'groups', CatalogueKind]> = [
  ['providers', 'provider'],
  ['models', 'model'],
  ['groups', 'group'],
];

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

const quotaBody = (q: AccountQuota) => ({
  account: q.accountId,
  credit_limit: q.limit,
  credits_used: q.used,
  period: q.period,
});

/** The platform admin's accounts and their credit quotas. */
export const accountRoutes = [
  adminRoute({
    method: 'get',
    path: '/admin/accounts',
    summary: 'List accounts',
    response: { description: 'The accounts.', content: json(list(account)) },
    async handle({ deps }, _req, res) {
      res.json({ object: 'list', data: await deps.admin.listAccounts() });
    },
  }),
  adminRoute({
    method: 'post',
    path: '/admin/accounts',
    summary: 'Create an account',
    body: createAccountBody,
    response: { status: 201, description: 'The account.', content: json(account) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.status(201).json(await adminAs(ctx, req).createAccount(ctx.body.id, ctx.body.name));
    },
  }),
  adminRoute({
    method: 'get',
    path: '/admin/accounts/{id}',
    summary: 'Read an account',
    params: [pathParam('id', 'The account id.')],
    response: { description: 'The account.', content: json(account) },
    async handle({ deps }, req, res) {
      res.json(await deps.admin.getAccount(String(req.params.id)));
    },
  }),
  adminRoute({
    method: 'patch',
    path: '/admin/accounts/{id}',
    summary: 'Rename an account',
    description: 'A `name` of null gives the account back its id as name; a change that changes nothing is not audited.',
    params: [pathParam('id', 'The account id.')],
    body: updateAccountBody,
    response: { description: 'The account.', content: json(account) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.json(await adminAs(ctx, req).updateAccount(String(req.params.id), ctx.body));
    },
  }),
  adminRoute({
    method: 'get',
    path: '/admin/accounts/{id}/quota',
    summary: "Read an account's credit quota",
    params: [pathParam('id', 'The account id.')],
    response: { description: 'Limit and use.', content: json(quota) },
    async handle({ deps }, req, res) {
      res.json(quotaBody(await deps.admin.getQuota(String(req.params.id))));
    },
  }),
  adminRoute({
    method: 'put',
    path: '/admin/accounts/{id}/quota',
    summary: "Set an account's credit limit",
    params: [pathParam('id', 'The account id.')],
    body: setQuotaBody,
    response: { description: 'Limit and use.', content: json(quota) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.json(quotaBody(await adminAs(ctx, req).setQuota(String(req.params.id), ctx.body.credit_limit, ctx.body.period)));
    },
  }),
];

/** The catalogue's providers, models and groups; each PUT body is the config file's entry schema (the path carries the id). */
export const catalogueRoutes = (schemas: CatalogueSchemas) =>
  CATALOGUE_PATHS.flatMap(([path, kind]) => [
    adminRoute({
      method: 'get',
      path: `/admin/${path}`,
      summary: `List ${path}`,
      response: { description: `The ${path}, file and admin entries.`, content: json(list()) },
      async handle({ deps }, _req, res) {
        res.json({ object: 'list', data: await deps.catalogue.listEntries(kind) });
      },
    }),
    adminRoute({
      method: 'put',
      path: `/admin/${path}/{id}`,
      summary: `Create or replace a ${kind}`,
      description: 'Checked against the whole resulting config; applies at once here and within CONFIG_POLL_MS elsewhere.',
      params: [pathParam('id', `The ${kind} ${kind === 'group' ? 'name' : 'id'}.`)],
      body: { content: json(entryBody(schemas[path])) },
      response: { description: `The stored ${kind} (secrets redacted).`, content: json({ type: 'object' }) },
      parse: [jsonBody()],
      async handle(ctx, req, res) {
        res.json(await catalogueAs(ctx, req).putEntry(kind, String(req.params.id), req.body));
      },
    }),
    adminRoute({
      method: 'delete',
      path: `/admin/${path}/{id}`,
      summary: `Delete a ${kind}`,
      params: [pathParam('id', `The ${kind} ${kind === 'group' ? 'name' : 'id'}.`)],
      response: {
        description: 'Deleted.',
        content: json({ type: 'object', properties: { id: { type: 'string' }, deleted: { const: true } } }),
      },
      async handle(ctx, req, res) {
        await catalogueAs(ctx, req).deleteEntry(kind, String(req.params.id));
        res.json({ id: req.params.id, deleted: true });
      },
    }),
  ]);

/** The platform's audit log. */
export const adminAuditRoute = adminRoute({
  method: 'get',
  path: '/admin/audit',
  summary: 'The audit log',
  description:
    'Every change to keys, accounts, quotas, budgets, providers, models and groups, newest first, with who made it (admin key, key, CLI), before and after (secrets masked), when and from where. Read-only. `export=csv` for CSV.',
  params: auditParams,
  query: auditQuery,
  response: { description: 'The records.', content: { ...auditList, 'text/csv': { type: 'string' } } },
  async handle({ deps, query }, _req, res) {
    sendAudit(query, res, await deps.admin.auditLog(auditFilter(query)));
  },
});
