/** The key objects and settings as /openapi.json shows them (the admin and self-service key routes share them). */
const nullable = (type: string, more: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...more });
const period = { enum: ['daily', 'monthly', null], description: 'When used credits start again from zero (UTC); null: never.' };

/** The counters are integers in the store; a limit past this is no limit. */
const limit = (more: Record<string, unknown> = {}) => nullable('integer', { minimum: 1, maximum: 1_000_000_000, ...more });
const limits = {
  type: 'object',
  description: "The key's own limits; null: the gateway-wide default (config file `limits`).",
  additionalProperties: false,
  properties: {
    requests_per_minute: limit(),
    tokens_per_minute: limit({ description: 'Checked before a call; a call is counted when it ends.' }),
    concurrent_streams: limit(),
  },
};

/** Credits fit decimal(20, 6) (store-postgres migration 004): anything from 1e14 up would overflow the column. */
export const creditLimit = nullable('number', { minimum: 0, exclusiveMaximum: 1e14 });

/**
 * What POST and PATCH take besides account and group, as the routes check it (the order is the order a reader
 * checks the fields in). Whether the models belong to the group, and the date to the calendar, the core decides.
 */
export const settings = {
  role: {
    enum: ['admin', 'member', null],
    default: 'member',
    description:
      'admin: account admin (keys, webhooks, the whole account\'s usage and audit); member: calls models, tasks, its own usage. docs/admin.md, "Roles".',
  },
  name: nullable('string', { maxLength: 200 }),
  expires_at: nullable('string', { pattern: '^\\d{4}-\\d{2}-\\d{2}T', description: 'ISO 8601; after it: 401 `key_expired`. null: never.' }),
  models: nullable('array', {
    items: { type: 'string' },
    minItems: 1,
    maxItems: 1000,
    description: "Model ids the key may call, a subset of its group's; null: the whole group.",
  }),
  mcp: nullable('array', {
    items: { type: 'string', minLength: 1, maxLength: 200 },
    maxItems: 1000,
    description:
      "MCP servers and tools the key may use (`server`, `server__*`, `server__tool`), within its group's; null: the group's. docs/mcp.md.",
  }),
  guardrails: nullable('array', {
    items: { type: 'string', minLength: 1, maxLength: 64 },
    maxItems: 100,
    description: "The key's own guardrail ids, run after its group's (which it cannot drop); null: none. docs/guardrails.md.",
  }),
  limits: { ...limits, type: ['object', 'null'] },
  tasks: {
    enum: ['account', 'own'],
    default: 'account',
    description:
      'Which video tasks the key reads, lists and cancels: account: every task of its account; own: only those it created (another key\'s task answers 404). docs/admin.md, "Keys narrowed to their own tasks".',
  },
  budget: nullable('object', {
    required: ['credit_limit'],
    additionalProperties: false,
    properties: { credit_limit: creditLimit, period },
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
    mcp: settings.mcp,
    guardrails: settings.guardrails,
    tasks: settings.tasks,
    limits,
    budget: nullable('object', {
      properties: { credit_limit: nullable('number'), period, credits_used: { type: 'number', description: 'In the current period.' } },
    }),
  },
};
