import type { ParamDoc, RouteDoc, SchemaDoc } from '@gateway/http-kit';

/** The /admin key and usage routes as documented in /openapi.json (AdminService and key-settings.ts check them). */
const json = (schema: SchemaDoc) => ({ 'application/json': schema });
const route = (r: Omit<RouteDoc, 'format' | 'auth' | 'errors'>): RouteDoc => ({
  ...r,
  format: 'admin',
  auth: { kind: 'admin-key' },
  errors: 'openai',
});
const keyId: ParamDoc = { name: 'id', in: 'path', required: true, description: 'The key id.', schema: { type: 'string' } };
const nullable = (type: string, more: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...more });
const period = { enum: ['daily', 'monthly', null], description: 'When used credits start again from zero (UTC); null: never.' };

const limits = {
  type: 'object',
  description: "The key's own limits; null: the gateway-wide default (config file `limits`).",
  additionalProperties: false,
  properties: {
    requests_per_minute: nullable('integer', { minimum: 1 }),
    tokens_per_minute: nullable('integer', { minimum: 1, description: 'Checked before a call; a call is counted when it ends.' }),
    concurrent_streams: nullable('integer', { minimum: 1 }),
  },
};

/** What POST and PATCH take besides account and group. */
export const settings = {
  role: {
    enum: ['admin', 'member'],
    default: 'member',
    description:
      'admin: account admin (keys, webhooks, the whole account\'s usage and audit); member: calls models, tasks, its own usage. docs/admin.md, "Roles".',
  },
  name: nullable('string', { maxLength: 200 }),
  expires_at: nullable('string', { description: 'ISO 8601; after it: 401 `key_expired`. null: never.' }),
  models: nullable('array', {
    items: { type: 'string' },
    minItems: 1,
    description: "Model ids the key may call, a subset of its group's; null: the whole group.",
  }),
  limits,
  tasks: {
    enum: ['account', 'own'],
    default: 'account',
    description:
      'Which video tasks the key reads, lists and cancels: account: every task of its account; own: only those it created (another key\'s task answers 404). docs/admin.md, "Keys narrowed to their own tasks".',
  },
  budget: nullable('object', {
    required: ['credit_limit'],
    additionalProperties: false,
    properties: { credit_limit: nullable('number', { minimum: 0 }), period },
    description: "The key's credit budget; null: none.",
  }),
};

export const key = {
  type: 'object',
  required: ['object', 'id', 'account', 'group'],
  properties: {
    object: { const: 'api_key' },
    id: { type: 'string' },
    account: { type: 'string' },
    group: { type: 'string' },
    role: { enum: ['admin', 'member'] },
    prefix: { type: 'string', description: 'The first characters of the key, to recognise it.' },
    created_at: { type: 'string' },
    revoked_at: nullable('string', { description: 'ISO 8601.' }),
    name: settings.name,
    expires_at: settings.expires_at,
    models: settings.models,
    tasks: settings.tasks,
    limits,
    budget: nullable('object', {
      properties: { credit_limit: nullable('number'), period, credits_used: { type: 'number', description: 'In the current period.' } },
    }),
  },
};

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
const query = (name: string, description: string, schema: SchemaDoc = { type: 'string' }): ParamDoc => ({
  name,
  in: 'query',
  description,
  schema,
});

export const adminKeyRoutes: RouteDoc[] = [
  route({
    method: 'get',
    path: '/admin/keys',
    summary: 'List keys',
    params: [query('account', "Only this account's keys.")],
    response: {
      description: 'The keys, without secrets.',
      content: json({ type: 'object', properties: { object: { const: 'list' }, data: { type: 'array', items: key } } }),
    },
  }),
  route({
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
  }),
  route({
    method: 'get',
    path: '/admin/keys/{id}',
    summary: 'Read a key',
    params: [keyId],
    response: { description: 'The key.', content: json(key) },
  }),
  route({
    method: 'patch',
    path: '/admin/keys/{id}',
    summary: "Change a key's name, expiry, allowlist, limits or budget",
    description:
      'Fields left out are kept; within `limits`, so are the limits left out. Applies at once on this instance, within KEY_CACHE_TTL_MS elsewhere.',
    params: [keyId],
    body: { content: json({ type: 'object', additionalProperties: false, properties: settings }) },
    response: { description: 'The key.', content: json(key) },
  }),
  route({
    method: 'delete',
    path: '/admin/keys/{id}',
    summary: 'Revoke a key',
    params: [keyId],
    response: {
      description: 'Revoked.',
      content: json({ type: 'object', properties: { id: { type: 'string' }, revoked: { const: true } } }),
    },
  }),
  route({
    method: 'get',
    path: '/admin/usage',
    summary: "Every account's usage, grouped",
    description:
      'Totals per group of the usage log, newest day first (or by name); grouped by key, each group has `key_name` and `account`. Video settlement and refund rows are not counted as requests. `export=csv` (or the older `format=csv`, or `Accept: text/csv`): CSV with a header row. An unknown parameter or value is a 400.',
    params: [
      query('account', 'Only this account.'),
      query('key', 'Only this key id.'),
      query('model', 'Only this model.'),
      query('provider', 'Only this provider.'),
      query('status', 'Only rows of this status (ok, error, refunded, a task status).'),
      query('from', 'From this time on (Unix seconds or ISO 8601).'),
      query('to', 'Before this time (Unix seconds or ISO 8601).'),
      query('group_by', 'The grouping.', { enum: ['day', 'model', 'key', 'account'], default: 'day' }),
      query('limit', 'At most this many groups.', { type: 'integer', minimum: 1, maximum: 10000, default: 100 }),
      query('wire_format', 'Only rows of this wire format.'),
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
  }),
  route({
    method: 'get',
    path: '/admin/usage/requests',
    summary: "Every account's request log",
    description:
      'Usage-log rows newest first, as an account reads its own (the usage format) plus `account`. `format=csv` or `Accept: text/csv`: CSV with a header row (`x-has-more`, `x-last-id`).',
    params: [
      query('account', 'Only this account.'),
      query('key', 'Only this key id.'),
      query('model', 'Only this model.'),
      query('provider', 'Only this provider.'),
      query('status', 'Only rows of this status (ok, error, refunded, a task status).'),
      query('task_id', 'Only rows of this task.'),
      query('request_id', 'Only the row of this request id.'),
      query('from', 'From this time on (Unix seconds or ISO 8601).'),
      query('to', 'Before this time (Unix seconds or ISO 8601).'),
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
  }),
  route({
    method: 'get',
    path: '/admin/usage/latency',
    summary: 'Latency and errors per model or provider',
    description:
      'Over every request in the time range (video settlement and refund rows are not requests): requests, errors (status error or failed, or HTTP 400 and up), `error_rate`, and p50/p95 latency in ms (null when no request has one). An unknown parameter or value is a 400.',
    params: [
      query('account', 'Only this account.'),
      query('key', 'Only this key id.'),
      query('model', 'Only this model.'),
      query('provider', 'Only this provider.'),
      query('wire_format', 'Only rows of this wire format.'),
      query('from', 'From this time on (Unix seconds or ISO 8601).'),
      query('to', 'Before this time (Unix seconds or ISO 8601).'),
      query('group_by', 'The grouping.', { enum: ['model', 'provider'], default: 'model' }),
      query('limit', 'At most this many groups.', { type: 'integer', minimum: 1, maximum: 10000, default: 100 }),
    ],
    response: {
      description: 'The groups by name; `has_more` when `limit` cut them.',
      content: json({
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
      }),
    },
  }),
];
