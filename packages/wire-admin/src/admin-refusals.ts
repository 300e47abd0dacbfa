import { invalid, type GatewayError } from '@gateway/core';
import type { SchemaFailure, SchemaRefusal } from '@gateway/http-kit';

/** How one field of a body is refused: its stable code and wording, whatever the schema keyword that failed. */
export type FieldRefusal = (failure: SchemaFailure) => GatewayError;

const MAX_LIMIT = 1_000_000_000;
const MAX_CREDITS = 1e14;

export const MAX_GRACE_SECONDS = 30 * 24 * 3600;

/** An unknown field, named with the fields its object knows, so a typo (`expiresAt`) is not silently dropped. */
export const unknownField = (key: string, known: readonly string[]) =>
  invalid('unknown_field', `Unknown field ${JSON.stringify(key.slice(0, 64))}; known: ${known.join(', ')}.`, key);

const fixed =
  (code: string, message: string, param: string): FieldRefusal =>
  () =>
    invalid(code, message, param);

const creditLimit = (param: string): FieldRefusal =>
  fixed('invalid_credit_limit', `"${param}" must be a number of credits from 0 to below ${MAX_CREDITS}, or null for unlimited.`, param);
const period = (param: string): FieldRefusal =>
  fixed('invalid_period', `"${param}" must be "daily", "monthly" or null (never resets).`, param);

const LIMIT_FIELDS = ['requests_per_minute', 'tokens_per_minute', 'concurrent_streams'];
const BUDGET_FIELDS = ['credit_limit', 'period'];

/** `limits`: an object of whole numbers (or null each), its unknown members named. */
const limits: FieldRefusal = (f) => {
  if (f.keyword === 'additionalProperties') return unknownField(String(f.params.additionalProperty), LIMIT_FIELDS);
  if (f.at === 'limits') return invalid('invalid_limits', '"limits" must be an object.', 'limits');
  return invalid('invalid_limits', `"${f.at}" must be a whole number from 1 to ${MAX_LIMIT}, or null for the gateway default.`, f.at);
};

/** `budget`: `{credit_limit, period}` or null. */
const budget: FieldRefusal = (f) => {
  if (f.keyword === 'additionalProperties') return unknownField(String(f.params.additionalProperty), BUDGET_FIELDS);
  if (f.keyword === 'required') return invalid('invalid_credit_limit', '"budget.credit_limit" is required.', 'budget.credit_limit');
  if (f.at === 'budget.credit_limit') return creditLimit('budget.credit_limit')(f);
  if (f.at === 'budget.period') return period('budget.period')(f);
  return invalid('invalid_budget', '"budget" must be an object {credit_limit, period}, or null for none.', 'budget');
};

/** A key's settings, in the order a reader checks them (the first failing one is answered). */
export const KEY_SETTING_REFUSALS: Readonly<Record<string, FieldRefusal>> = {
  role: fixed('invalid_role', '"role" must be "admin" (account admin) or "member".', 'role'),
  name: fixed('invalid_name', '"name" must be a string of at most 200 characters, or null.', 'name'),
  expires_at: fixed(
    'invalid_expires_at',
    '"expires_at" must be an ISO 8601 date-time (e.g. 2030-01-31T00:00:00Z), or null for never.',
    'expires_at',
  ),
  models: fixed('invalid_models', '"models" must be a non-empty array of model ids, or null for every model of the group.', 'models'),
  mcp: fixed(
    'invalid_mcp',
    '"mcp" must be an array of `server`, `server__*` or `server__tool` entries, or null for the group\'s list.',
    'mcp',
  ),
  guardrails: fixed('invalid_guardrails', '"guardrails" must be an array of guardrail ids, or null for none of its own.', 'guardrails'),
  tasks: fixed(
    'invalid_tasks',
    '"tasks" must be "account" (every task of the account) or "own" (only the tasks the key created).',
    'tasks',
  ),
  limits,
  budget,
};

export const KEY_REFUSALS: Readonly<Record<string, FieldRefusal>> = {
  account: fixed('missing_account', '"account" is required.', 'account'),
  group: (f) => invalid('unknown_group', `No group ${JSON.stringify(f.value)}.`, 'group'),
  ...KEY_SETTING_REFUSALS,
};

export const ACCOUNT_REFUSALS: Readonly<Record<string, FieldRefusal>> = {
  id: fixed('invalid_account_id', '"id" must be 1-64 letters, digits, _ . -', 'id'),
  name: fixed('invalid_name', '"name" must be a string of at most 200 characters.', 'name'),
};

export const QUOTA_REFUSALS: Readonly<Record<string, FieldRefusal>> = {
  credit_limit: creditLimit('credit_limit'),
  period: period('period'),
};

export const ROTATE_REFUSALS: Readonly<Record<string, FieldRefusal>> = {
  grace_seconds: fixed(
    'invalid_grace_seconds',
    `"grace_seconds" must be a whole number of seconds from 0 to ${MAX_GRACE_SECONDS}: how long the old secret keeps working.`,
    'grace_seconds',
  ),
};

/** The top-level field a failure belongs to (`limits.requests_per_minute` → `limits`, `models[1]` → `models`). */
const fieldOf = (f: SchemaFailure) => (f.keyword === 'required' && f.at === '' ? f.param : f.at).split(/[.[]/)[0]!;

/** Within one field: its own type first, then an unknown member, a missing one, a bad one. */
const rank = (f: SchemaFailure) =>
  f.keyword === 'additionalProperties' ? 1 : f.keyword === 'required' ? 2 : f.at === fieldOf(f) && f.keyword === 'type' ? 0 : 3;

/**
 * A body's refusals with its own stable codes: an unknown top-level field first (named with `known`, or worded by
 * `unknown` for a field the route refuses on purpose), then the first field of `fields` (in their order) that failed.
 */
export function fieldRefusals(
  fields: Readonly<Record<string, FieldRefusal>>,
  known: readonly string[],
  unknown: Readonly<Record<string, () => GatewayError>> = {},
): SchemaRefusal {
  return (failures) => {
    const extra = failures.find((f) => f.keyword === 'additionalProperties' && f.at === '');
    if (extra) {
      const key = String(extra.params.additionalProperty);
      return unknown[key]?.() ?? unknownField(key, known);
    }
    for (const [name, refuse] of Object.entries(fields)) {
      const own = failures.filter((f) => fieldOf(f) === name).sort((a, b) => rank(a) - rank(b));
      if (own[0]) return refuse(own[0]);
    }
    return undefined;
  };
}
