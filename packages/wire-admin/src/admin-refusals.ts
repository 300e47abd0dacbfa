import { invalid } from '@gateway/core';
import { unknownField, type FieldRefusal } from '@gateway/http-kit';

const MAX_LIMIT = 1_000_000_000;
const MAX_CREDITS = 1e14;

export const MAX_GRACE_SECONDS = 30 * 24 * 3600;

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
