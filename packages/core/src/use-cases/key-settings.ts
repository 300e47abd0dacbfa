import type { BudgetPeriod } from '../budget-period';
import type { ModelCatalogue } from '../catalogue';
import { invalid } from '../errors';
import {
  NO_KEY_LIMITS,
  type ApiKeyRecord,
  type KeyLimits,
  type KeyRole,
  type KeySettings,
  type TaskScope,
} from '../ports/key-repository.port';
import type { KeyQuota } from '../ports/quota-repository.port';
import { mcpEntryProblem, widerMcpEntries, type McpAllowList } from '../mcp/mcp-allow-list';

/** What a key's MCP list is checked against: the configured servers and its group's list. */
export interface McpKeyRule {
  servers(): readonly string[];
  groupList(group: string): McpAllowList;
}

/** Each key limit: its admin API name and its record field. */
export const LIMIT_FIELDS: Array<[keyof KeyLimitFields, keyof KeyLimits]> = [
  ['requests_per_minute', 'requestsPerMinute'],
  ['tokens_per_minute', 'tokensPerMinute'],
  ['concurrent_streams', 'concurrentStreams'],
];

/** A key's limits as the admin API writes them; null: the gateway-wide default. */
export interface KeyLimitFields {
  requests_per_minute?: number | null;
  tokens_per_minute?: number | null;
  concurrent_streams?: number | null;
}

/** A key's budget as the admin API writes it. */
export interface KeyBudgetFields {
  credit_limit: number | null;
  /** absent or null: never resets */
  period?: BudgetPeriod | null;
}

/**
 * A key's settings as the admin API writes them, already checked against the route's schema (types, ranges, enums,
 * unknown fields); what is left here are the rules a schema cannot say. Absent fields are kept on a change.
 */
export interface KeyChangeFields {
  /** null: member */
  role?: KeyRole | null;
  name?: string | null;
  /** ISO 8601; null: never */
  expires_at?: string | null;
  /** null: every model of the group */
  models?: string[] | null;
  /** MCP servers and tools (`server`, `server__*`, `server__tool`) within the group's; null: the group's */
  mcp?: string[] | null;
  /** the key's own guardrail ids, run after its group's (which it cannot drop); null: none */
  guardrails?: string[] | null;
  /** null: every limit back to the gateway default */
  limits?: KeyLimitFields | null;
  /** null: none */
  budget?: KeyBudgetFields | null;
  tasks?: TaskScope;
}

/** A new key: its account and group (default `default`) besides the settings. */
export interface KeyCreateFields extends KeyChangeFields {
  account: string;
  /** absent or null: `default` */
  group?: string | null;
}

export type Budget = { limit: number | null; period: BudgetPeriod | null };

/** A key's budget: `{credit_limit, period}`, or null for none. */
export const budgetOf = (b: KeyBudgetFields | null): Budget => ({ limit: b?.credit_limit ?? null, period: b?.period ?? null });

function limitsOf(v: KeyLimitFields | null, current: KeyLimits | undefined): KeyLimits {
  const out: KeyLimits = { ...NO_KEY_LIMITS, ...(v === null ? {} : current) };
  if (v === null) return out;
  for (const [wire, field] of LIMIT_FIELDS) {
    const n = v[wire];
    if (n !== undefined) out[field] = n;
  }
  return out;
}

/** The model allowlist: known models of the key's group, stored by their own ids (an alias names its model). */
function modelsOf(v: string[] | null, group: string, catalogue: ModelCatalogue): string[] | null {
  if (v === null) return null;
  const ids = v.map((m) => {
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

/** A key's MCP list: entries of configured servers, no wider than its group's list (as `models` within the group). */
function mcpOf(v: string[] | null, group: string, rule: McpKeyRule | undefined): string[] | null {
  if (v === null) return null;
  const refuse = (why: string) => invalid('invalid_mcp', `"mcp": ${why}.`, 'mcp');
  if (!rule) throw refuse('no MCP servers are configured here');
  for (const entry of v) {
    const problem = mcpEntryProblem(entry, rule.servers());
    if (problem) throw refuse(problem.slice(0, 300));
  }
  const wider = widerMcpEntries(v, rule.groupList(group));
  if (wider.length) throw refuse(`${JSON.stringify(wider.slice(0, 20))} is wider than group "${group}" allows`);
  return [...new Set(v)];
}

/** A key's own guardrails: ids of configured guardrails (its group's always run too, docs/guardrails.md). */
function guardrailsOf(v: string[] | null, known: ((id: string) => boolean) | undefined): string[] | null {
  if (v === null) return null;
  const unknown = v.filter((id) => !known?.(id));
  if (unknown.length)
    throw invalid(
      'invalid_guardrails',
      `"guardrails" names ${JSON.stringify(unknown.slice(0, 20))}, which no guardrail has as id.`,
      'guardrails',
    );
  return [...new Set(v)];
}

/** The schema checks the form of a date-time; a form that names no instant (month 13) is refused here. */
function expiryOf(v: string | null): Date | null {
  if (v === null) return null;
  const at = new Date(v);
  if (Number.isNaN(at.getTime()))
    throw invalid(
      'invalid_expires_at',
      '"expires_at" must be an ISO 8601 date-time (e.g. 2030-01-31T00:00:00Z), or null for never.',
      'expires_at',
    );
  return at;
}

/** The settings the fields give (absent fields stay absent, so an update keeps them); `current` fills partial limits. */
export function keySettingsOf(
  fields: KeyChangeFields,
  ctx: { group: string; catalogue: ModelCatalogue; current?: KeyLimits; mcp?: McpKeyRule; guardrail?: (id: string) => boolean },
): Partial<KeySettings> {
  const out: Partial<KeySettings> = {};
  if (fields.name !== undefined) out.name = fields.name;
  if (fields.expires_at !== undefined) out.expiresAt = expiryOf(fields.expires_at);
  if (fields.models !== undefined) out.models = modelsOf(fields.models, ctx.group, ctx.catalogue);
  if (fields.mcp !== undefined) out.mcp = mcpOf(fields.mcp, ctx.group, ctx.mcp);
  if (fields.guardrails !== undefined) out.guardrails = guardrailsOf(fields.guardrails, ctx.guardrail);
  if (fields.tasks !== undefined) out.tasks = fields.tasks;
  if (fields.limits !== undefined) out.limits = limitsOf(fields.limits, ctx.current);
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
    mcp: k.mcp ?? null,
    guardrails: k.guardrails ?? null,
    tasks: k.tasks ?? 'account',
    limits: Object.fromEntries(LIMIT_FIELDS.map(([wire, field]) => [wire, k.limits[field]])) as Record<string, number | null>,
    budget: budgetView(budget),
  };
}
export type KeyView = ReturnType<typeof keyView>;
