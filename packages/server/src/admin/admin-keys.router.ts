import { jsonBody, type ParamDoc, type SchemaDoc } from '@gateway/http-kit';
import { sendUsageLatency, sendUsageRequests, sendUsageSummary } from '@gateway/wire-usage';
import { adminAs, adminRoute } from './admin-route';
import { key, query, settings, usageGroup } from './admin-keys.openapi';

const json = (schema: SchemaDoc) => ({ 'application/json': schema });
const keyId: ParamDoc = { name: 'id', in: 'path', required: true, description: 'The key id.', schema: { type: 'string' } };

/** The platform admin's key and usage routes (KeyAdministration checks the bodies). */
/** The usage routes' shared filters, described once. */
const USAGE_FILTER = {
  account: query('account', 'Only this account.'),
  key: query('key', 'Only this key id.'),
  model: query('model', 'Only this model.'),
  provider: query('provider', 'Only this provider.'),
  status: query('status', 'Only rows of this status (ok, error, refunded, a task status).'),
  from: query('from', 'From this time on (Unix seconds or ISO 8601).'),
  to: query('to', 'Before this time (Unix seconds or ISO 8601).'),
  wire_format: query('wire_format', 'Only rows of this wire format.'),
};

export const adminKeyRoutes = [
  adminRoute({
    method: 'get',
    path: '/admin/keys',
    summary: 'List keys',
    params: [query('account', "Only this account's keys.")],
    response: {
      description: 'The keys, without secrets.',
      content: json({ type: 'object', properties: { object: { const: 'list' }, data: { type: 'array', items: key } } }),
    },
    async handle({ deps }, req, res) {
      const account = typeof req.query.account === 'string' ? req.query.account : undefined;
      res.json({ object: 'list', data: await deps.admin.listKeys(account) });
    },
  }),
  adminRoute({
    method: 'post',
    path: '/admin/keys',
    summary: 'Create a key',
    description: 'The clear key is in this answer once and never stored. Unknown fields are refused (400 `unknown_field`).',
    body: {
      content: json({
        type: 'object',
        required: ['account'],
        additionalProperties: false,
        properties: { account: { type: 'string' }, group: { type: 'string', default: 'default' }, ...settings },
      }),
    },
    response: {
      status: 201,
      description: 'The key with `key`.',
      content: json({ ...key, properties: { ...key.properties, key: { type: 'string' } } }),
    },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.status(201).json(await adminAs(ctx, req).createKey(req.body));
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
    body: { content: json({ type: 'object', additionalProperties: false, properties: settings }) },
    response: { description: 'The key.', content: json(key) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.json(await adminAs(ctx, req).updateKey(String(req.params.id), req.body));
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
  adminRoute({
    method: 'get',
    path: '/admin/usage',
    summary: "Every account's usage, grouped",
    description:
      'Totals per group of the usage log, newest day first (or by name); grouped by key, each group has `key_name` and `account`. Video settlement and refund rows are not counted as requests. `export=csv` (or the older `format=csv`, or `Accept: text/csv`): CSV with a header row. An unknown parameter or value is a 400.',
    params: [
      USAGE_FILTER.account,
      USAGE_FILTER.key,
      USAGE_FILTER.model,
      USAGE_FILTER.provider,
      USAGE_FILTER.status,
      USAGE_FILTER.from,
      USAGE_FILTER.to,
      query('group_by', 'The grouping.', { enum: ['day', 'model', 'key', 'account'], default: 'day' }),
      query('limit', 'At most this many groups.', { type: 'integer', minimum: 1, maximum: 10000, default: 100 }),
      USAGE_FILTER.wire_format,
      query('export', 'json or csv (the same parameter as the account usage route).', { enum: ['json', 'csv'] }),
      query('format', 'json or csv (older name of `export`).', { enum: ['json', 'csv'] }),
    ],
    response: {
      description: 'The groups; `has_more` when `limit` cut them.',
      content: {
        'application/json': {
          type: 'object',
          properties: {
            object: { const: 'list' },
            group_by: { type: 'string' },
            data: { type: 'array', items: usageGroup },
            has_more: { type: 'boolean' },
          },
        },
        'text/csv': { type: 'string' },
      },
    },
    handle: ({ deps }, req, res) => sendUsageSummary(deps.usage, req, res),
  }),
  adminRoute({
    method: 'get',
    path: '/admin/usage/requests',
    summary: "Every account's request log",
    description:
      'Usage-log rows newest first, as an account reads its own (the usage format) plus `account`. `format=csv` or `Accept: text/csv`: CSV with a header row (`x-has-more`, `x-last-id`).',
    params: [
      USAGE_FILTER.account,
      USAGE_FILTER.key,
      USAGE_FILTER.model,
      USAGE_FILTER.provider,
      USAGE_FILTER.status,
      query('task_id', 'Only rows of this task.'),
      query('request_id', 'Only the row of this request id.'),
      USAGE_FILTER.from,
      USAGE_FILTER.to,
      query('after', 'The `last_id` of the previous page.'),
      query('limit', 'At most this many rows.', { type: 'integer', minimum: 1, maximum: 1000, default: 100 }),
      query('format', 'json or csv.', { enum: ['json', 'csv'] }),
    ],
    response: {
      description: 'One page of rows; `has_more` when there are older ones.',
      content: {
        'application/json': {
          type: 'object',
          properties: {
            object: { const: 'list' },
            data: { type: 'array', items: { type: 'object' } },
            has_more: { type: 'boolean' },
            first_id: { type: ['string', 'null'] },
            last_id: { type: ['string', 'null'] },
          },
        },
        'text/csv': { type: 'string' },
      },
    },
    handle: ({ deps }, req, res) => sendUsageRequests(deps.usage, req, res),
  }),
  adminRoute({
    method: 'get',
    path: '/admin/usage/latency',
    summary: 'Latency and errors per model or provider',
    description:
      'Over every request in the time range (video settlement and refund rows are not requests): requests, errors (status error or failed, or HTTP 400 and up), `error_rate`, and p50/p95 latency in ms (null when no request has one). An unknown parameter or value is a 400.',
    params: [
      USAGE_FILTER.account,
      USAGE_FILTER.key,
      USAGE_FILTER.model,
      USAGE_FILTER.provider,
      USAGE_FILTER.wire_format,
      USAGE_FILTER.from,
      USAGE_FILTER.to,
      query('group_by', 'The grouping.', { enum: ['model', 'provider'], default: 'model' }),
      query('limit', 'At most this many groups.', { type: 'integer', minimum: 1, maximum: 10000, default: 100 }),
    ],
    response: {
      description: 'The groups by name; `has_more` when `limit` cut them.',
      content: {
        'application/json': {
          type: 'object',
          properties: {
            object: { const: 'list' },
            group_by: { type: 'string' },
            data: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  group: { type: ['string', 'null'] },
                  requests: { type: 'integer' },
                  errors: { type: 'integer' },
                  error_rate: { type: 'number' },
                  latency_p50_ms: { type: ['number', 'null'] },
                  latency_p95_ms: { type: ['number', 'null'] },
                },
              },
            },
            has_more: { type: 'boolean' },
          },
        },
      },
    },
    handle: ({ deps }, req, res) => sendUsageLatency(deps.usage, req, res),
  }),
];
