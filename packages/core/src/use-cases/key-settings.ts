import { BUDGET_PERIODS, type BudgetPeriod } from '../budget-period';
import type { ModelCatalogue } from '../catalogue';
import { invalid } from '../errors';
import { TASK_SCOPES, type ApiKeyRecord, type KeyLimits, type KeySettings, type TaskScope } from '../ports/key-repository.port';
import type { KeyQuota } from '../ports/quota-repository.port';

/** The settings fields of a key in the admin API (snake_case, as every admin body). */
export const KEY_SETTING_FIELDS = ['name', 'expires_at', 'models', 'limits', 'budget', 'tasks'] as const;
const LIMIT_FIELDS: Array<[string, keyof KeyLimits]> = [
  ['requests_per_minute', 'requestsPerMinute'],
  ['tokens_per_minute', 'tokensPerMinute'],
  ['concurrent_streams', 'concurrentStreams'],
];
/** The counters are integers in the store; a limit past this is no limit. */
const MAX_LIMIT = 1_000_000_000;

/** Credits fit decimal(20, 6) (store-postgres migration 004): anything from 1e14 up would overflow the column. */
const MAX_CREDITS = 1e14;

/** A credit limit: credits, or null for unlimited. */
export function parseCreditLimit(v: unknown, param: string): number | null {
  if (v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v >= MAX_CREDITS))
    throw invalid(
      'invalid_credit_limit',
      `"${param}" must be a number of credits from 0 to below ${MAX_CREDITS}, or null for unlimited.`,
      param,
    );
  return v as number | null;
}

/** A quota's period: daily, monthly, or null (never resets). */
export function parsePeriod(v: unknown, param: string): BudgetPeriod | null {
  if (v !== null && !BUDGET_PERIODS.includes(v as BudgetPeriod))
    throw invalid('invalid_period', `"${param}" must be "daily", "monthly" or null (never resets).`, param);
  return v as BudgetPeriod | null;
}

/** A key's budget: `{credit_limit, period}`, or null for none. */
export function parseBudget(v: unknown): { limit: number | null; period: BudgetPeriod | null } {
  if (v === null) return { limit: null, period: null };
  if (!isObject(v)) throw invalid('invalid_budget', '"budget" must be an object {credit_limit, period}, or null for none.', 'budget');
  refuseUnknownFields(v, ['credit_limit', 'period']);
  if (v.credit_limit === undefined) throw invalid('invalid_credit_limit', '"budget.credit_limit" is required.', 'budget.credit_limit');
  return { limit: parseCreditLimit(v.credit_limit, 'budget.credit_limit'), period: parsePeriod(v.period ?? null, 'budget.period') };
}

/** A JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Refuses a field the route does not know, so a typo (`expiresAt`) is not silently dropped. */
export function refuseUnknownFields(body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).find((k) => !known.includes(k));
  if (unknown !== undefined)
    throw invalid('unknown_field', `Unknown field ${JSON.stringify(unknown.slice(0, 64))}; known: ${known.join(', ')}.`, unknown);
}

function parseLimits(v: unknown, current: KeyLimits | undefined): KeyLimits {
  if (!isObject(v)) throw invalid('invalid_limits', '"limits" must be an object.', 'limits');
  refuseUnknownFields(
    v,
    LIMIT_FIELDS.map(([wire]) => wire),
  );
  const out: KeyLimits = { requestsPerMinute: null, tokensPerMinute: null, concurrentStreams: null, ...current };
  for (const [wire, field] of LIMIT_FIELDS) {
    const n = v[wire];
    if (n === undefined) continue;
    if (n !== null && (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_LIMIT))
      throw invalid(
        'invalid_limits',
        `"limits.${wire}" must be a whole number from 1 to ${MAX_LIMIT}, or null for the gateway default.`,
        `limits.${wire}`,
      );
    out[field] = n;
  }
  return out;
}

/** The model allowlist: known models of the key's group, stored by their own ids (an alias names its model). */
function parseModels(v: unknown, group: string, catalogue: ModelCatalogue): string[] | null {
  if (v === null) return null;
  if (!Array.isArray(v) || v.length === 0 || v.length > 1000 || v.some((m) => typeof m !== 'string'))
    throw invalid('invalid_models', '"models" must be a non-empty array of model ids, or null for every model of the group.', 'models');
  const ids = (v as string[]).map((m) => {
    const model = catalogue.get(m);
    if (!model || !catalogue.groupAllows(group, model.id))
      throw invalid(
        'invalid_models',
        `"models" names ${JSON.stringify(m.slice(0, 200))}, which is not a model of group "${group}".`,
        'models',
      );
    return model.id;
  });
  return [...new Set(ids)];
}

function parseExpiry(v: unknown): Date | null {
  if (v === null) return null;
  const at = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v) : null;
  if (!at || Number.isNaN(at.getTime()))
    throw invalid(
      'invalid_expires_at',
      '"expires_at" must be an ISO 8601 date-time (e.g. 2030-01-31T00:00:00Z), or null for never.',
      'expires_at',
    );
  return at;
}

/** The settings a body gives (absent fields stay absent, so an update keeps them); `current` fills partial limits. */
export function parseKeySettings(
  body: Record<string, unknown>,
  ctx: { group: string; catalogue: ModelCatalogue; current?: KeyLimits },
): Partial<KeySettings> {
  const out: Partial<KeySettings> = {};
  if (body.name !== undefined) {
    if (body.name !== null && (typeof body.name !== 'string' || body.name.length > 200))
      throw invalid('invalid_name', '"name" must be a string of at most 200 characters, or null.', 'name');
    out.name = body.name as string | null;
  }
  if (body.expires_at !== undefined) out.expiresAt = parseExpiry(body.expires_at);
  if (body.models !== undefined) out.models = parseModels(body.models, ctx.group, ctx.catalogue);
  if (body.tasks !== undefined) {
    if (!TASK_SCOPES.includes(body.tasks as TaskScope))
      throw invalid(
        'invalid_tasks',
        '"tasks" must be "account" (every task of the account) or "own" (only the tasks the key created).',
        'tasks',
      );
    out.tasks = body.tasks as TaskScope;
  }
  if (body.limits !== undefined)
    out.limits =
      body.limits === null
        ? { requestsPerMinute: null, tokensPerMinute: null, concurrentStreams: null }
        : parseLimits(body.limits, ctx.current);
  return out;
}

const budgetView = (q: KeyQuota | undefined) =>
  q && (q.limit !== null || q.period !== null) ? { credit_limit: q.limit, period: q.period, credits_used: q.used } : null;

/** A key as the admin API shows it: never the key or its hash. */
export function keyView(k: ApiKeyRecord, budget?: KeyQuota) {
  return {
    object: 'api_key',
    id: k.id,
    account: k.accountId,
    group: k.group,
    role: k.role,
    name: k.name,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
    expires_at: k.expiresAt?.toISOString() ?? null,
    models: k.models,
    tasks: k.tasks ?? 'account',
    limits: Object.fromEntries(LIMIT_FIELDS.map(([wire, field]) => [wire, k.limits[field]])) as Record<string, number | null>,
    budget: budgetView(budget),
  };
}
export type KeyView = ReturnType<typeof keyView>;
