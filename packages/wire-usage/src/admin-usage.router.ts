import type { UsageQuery } from '@gateway/core';
import { adminRouteOf, queryParam as query, type SchemaDoc } from '@gateway/http-kit';
import { sendUsageLatency } from './usage.latency';
import { sendUsageRequests } from './usage.requests';
import { sendUsageSummary } from './usage.summary';

/** What the admin usage routes read: every account's usage. */
export interface AdminUsageDeps {
  usage: UsageQuery;
}

const adminRoute = adminRouteOf<AdminUsageDeps>();
const nullable = (type: string, more: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...more });

/** One group of GET /admin/usage as /openapi.json shows it. */
const usageGroup = {
  type: 'object',
  properties: {
    group: nullable('string', { description: 'The day (YYYY-MM-DD, UTC), model, key id or account id.' }),
    key_name: nullable('string', { description: "Grouped by key: the key's name." }),
    account: nullable('string', { description: "Grouped by key: the key's account." }),
    requests: { type: 'integer', description: 'Requests (video settlement and refund rows are not counted).' },
    input_tokens: { type: 'integer' },
    output_tokens: { type: 'integer' },
    credits: { type: 'number', description: 'Credits charged.' },
    refunds: { type: 'number', description: 'Credits given back.' },
    video_seconds_requested: { type: 'number', description: 'Video seconds asked for, over the succeeded tasks settled.' },
    video_seconds_delivered: { type: 'number', description: 'Video seconds delivered (what those charges settled on).' },
  },
};

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
const filters = (...names: Array<keyof typeof USAGE_FILTER>) => names.map((n) => USAGE_FILTER[n]);
/** A grouped answer: the groups of one grouping, `has_more` when `limit` cut them. */
const groups = (items: SchemaDoc) => ({
  type: 'object',
  properties: { object: { const: 'list' }, group_by: { type: 'string' }, data: { type: 'array', items }, has_more: { type: 'boolean' } },
});
const groupLimit = query('limit', 'At most this many groups.', { type: 'integer', minimum: 1, maximum: 10000, default: 100 });

/** Every account's usage behind the admin key: the usage format's handlers over all accounts. */
export const adminUsageRoutes = [
  adminRoute({
    method: 'get',
    path: '/admin/usage',
    summary: "Every account's usage, grouped",
    description:
      'Totals per group of the usage log, newest day first (or by name); grouped by key, each group has `key_name` and `account`. Video settlement and refund rows are not counted as requests. `export=csv` (or the older `format=csv`, or `Accept: text/csv`): CSV with a header row. An unknown parameter or value is a 400.',
    params: [
      ...filters('account', 'key', 'model', 'provider', 'status', 'from', 'to'),
      query('group_by', 'The grouping.', { enum: ['day', 'model', 'key', 'account'], default: 'day' }),
      groupLimit,
      USAGE_FILTER.wire_format,
      query('export', 'json or csv (the same parameter as the account usage route).', { enum: ['json', 'csv'] }),
      query('format', 'json or csv (older name of `export`).', { enum: ['json', 'csv'] }),
    ],
    response: {
      description: 'The groups; `has_more` when `limit` cut them.',
      content: {
        'application/json': groups(usageGroup),
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
      ...filters('account', 'key', 'model', 'provider', 'status'),
      query('task_id', 'Only rows of this task.'),
      query('request_id', 'Only the row of this request id.'),
      ...filters('from', 'to'),
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
      ...filters('account', 'key', 'model', 'provider', 'wire_format', 'from', 'to'),
      query('group_by', 'The grouping.', { enum: ['model', 'provider'], default: 'model' }),
      groupLimit,
    ],
    response: {
      description: 'The groups by name; `has_more` when `limit` cut them.',
      content: {
        'application/json': groups({
          type: 'object',
          properties: {
            group: { type: ['string', 'null'] },
            requests: { type: 'integer' },
            errors: { type: 'integer' },
            error_rate: { type: 'number' },
            latency_p50_ms: { type: ['number', 'null'] },
            latency_p95_ms: { type: ['number', 'null'] },
          },
        }),
      },
    },
    handle: ({ deps }, req, res) => sendUsageLatency(deps.usage, req, res),
  }),
];
