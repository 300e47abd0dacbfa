import type { BudgetPeriod } from '../budget-period';
import type { ModelCatalogue } from '../catalogue';
import { GatewayError } from '../errors';
import type { ApiKeyRecord, KeyLimits, TaskScope } from '../ports/key-repository.port';
import type { KeyQuota, QuotaRepository } from '../ports/quota-repository.port';
import { LIMIT_FIELDS, type Budget, type KeyChangeFields, type KeyLimitFields } from './key-settings';

/** A key as it is, or would be after a write: what bounds are checked against. */
export interface BoundedKey {
  group: string;
  models: readonly string[] | null;
  limits: KeyLimits;
  expiresAt: Date | null;
  tasks: TaskScope;
  /** limit null: no limit */
  budget: Budget;
}

export const boundedKey = (k: Pick<ApiKeyRecord, 'group' | 'models' | 'limits' | 'expiresAt' | 'tasks'>, budget: Budget): BoundedKey => ({
  group: k.group,
  models: k.models,
  limits: k.limits,
  expiresAt: k.expiresAt,
  tasks: k.tasks ?? 'account',
  budget: { limit: budget.limit, period: budget.period },
});

/** Bounds a key write must stay within (self-service: what the caller's own key and the account were granted). */
export interface KeyBounds {
  /** the fields as sent, before the rules that need the catalogue (a bound is named before their `invalid_*`) */
  asked(group: string, fields: KeyChangeFields): Promise<void>;
  /** the key as it would be written */
  key(k: BoundedKey): void;
}

/** A 400 naming the bound a self-service key would exceed; every such code starts with `exceeds_`. */
const exceeds = (bound: string, message: string, param: string) =>
  new GatewayError('invalid_request', message, { code: `exceeds_${bound}`, param });

export interface AccountBoundsDeps {
  catalogue: ModelCatalogue;
  quotas: QuotaRepository;
  /** the gateway-wide per-key limits (config `limits`; 0 = unlimited) */
  gatewayLimits: { requestsPerMinutePerKey: number; concurrentStreamsPerKey: number };
}

/** The calling key as stored (not as cached at authentication), with its budget: what every key it touches stays within. */
export interface Caller {
  key: ApiKeyRecord;
  budget: KeyQuota;
}

/**
 * The rule of self-service: an account admin may create, change, rotate or revoke only a key it could have created
 * itself, and never more than the platform admin granted the account. Against the caller's own key: the same group,
 * models inside its allowlist, each limit no laxer than its own (a limit it lacks: the gateway's per-key one), an
 * expiry no later, a task scope no wider, a budget no larger and resetting no more often. Against the account: a
 * budget within the credit quota. So a narrowed key can neither hand out nor take over a wider one.
 */
export function accountBounds(deps: AccountBoundsDeps, caller: Caller): KeyBounds {
  return {
    async asked(group, body) {
      if (group !== caller.key.group)
        throw exceeds('group', `The key's group must be the account's group "${caller.key.group}", not "${group.slice(0, 64)}".`, 'group');
      checkModels(deps.catalogue, caller.key, body.models ?? null);
      if (body.budget) {
        const quota = await deps.quotas.get(caller.key.accountId);
        const credits = body.budget.credit_limit;
        if (quota.limit !== null && (credits === null || credits > quota.limit))
          throw exceeds(
            'quota',
            `The key's budget (${credits ?? 'unlimited'} credits) exceeds the account's credit quota of ${quota.limit} credits.`,
            'budget.credit_limit',
          );
      }
    },
    key: (key) => withinCaller(deps, caller, key),
  };
}

/** Refuses a key the caller could not have created (rotation, revocation and changes of an existing key ask this first). */
export function withinCaller(deps: Pick<AccountBoundsDeps, 'gatewayLimits'>, caller: Caller, key: BoundedKey): void {
  const c = caller.key;
  if (key.group !== c.group)
    throw exceeds('group', `The key's group must be the caller's group "${c.group}", not "${key.group.slice(0, 64)}".`, 'group');
  if (c.models && (!key.models || key.models.some((m) => !c.models!.includes(m))))
    throw exceeds(
      'allowlist',
      `The key may call ${key.models ? key.models.join(', ') : 'every model of the group'}, beyond the caller's allowlist (${c.models.join(', ')}).`,
      'models',
    );
  for (const [wire, field] of LIMIT_FIELDS) {
    const ceiling = c.limits[field] ?? gatewayLimit(deps.gatewayLimits, field);
    const limit = key.limits[field] ?? gatewayLimit(deps.gatewayLimits, field);
    if (ceiling !== null && (limit === null || limit > ceiling))
      throw exceeds(
        'rate_limit',
        `"limits.${wire}" (${limit ?? 'unlimited'}) exceeds the caller's ceiling of ${ceiling}.`,
        `limits.${wire}`,
      );
  }
  if (c.expiresAt && (!key.expiresAt || key.expiresAt > c.expiresAt))
    throw exceeds(
      'expiry',
      `The key expires ${key.expiresAt?.toISOString() ?? 'never'}, after the caller's key (${c.expiresAt.toISOString()}).`,
      'expires_at',
    );
  if (c.tasks === 'own' && key.tasks !== 'own')
    throw exceeds('tasks', 'The caller sees only its own tasks ("tasks": "own"), so the key must too.', 'tasks');
  const mine = caller.budget;
  if (mine.limit !== null) {
    const b = key.budget;
    if (b.limit === null || b.limit > mine.limit || resets(b.period) > resets(mine.period))
      throw exceeds(
        'budget',
        `The key's budget (${b.limit ?? 'unlimited'} credits, ${b.period ?? 'never reset'}) exceeds the caller's own (${mine.limit} credits, ${mine.period ?? 'never reset'}).`,
        'budget.credit_limit',
      );
  }
}

/** How often a budget starts again: the same limit resetting more often allows more. */
const resets = (p: BudgetPeriod | null) => (p === null ? 0 : p === 'monthly' ? 1 : 2);

/** A key's settings as an account admin sends them: `tasks` may be null too, meaning the caller's scope. */
export type SelfServiceKeyFields = Omit<KeyChangeFields, 'tasks'> & { tasks?: TaskScope | null };

/**
 * Leaving a field out (on creation) or sending null widens nothing: it means the caller's own expiry, limits, task
 * scope and budget (and, on creation, its allowlist). Fields the caller is not bound in are left as they are.
 */
export function inheritFromCaller<T extends SelfServiceKeyFields>(
  fields: T,
  caller: Caller,
  creating: boolean,
): Omit<T, 'tasks'> & KeyChangeFields {
  const c = caller.key;
  const unset = (v: unknown) => v === null || (creating && v === undefined);
  const { tasks, ...out }: SelfServiceKeyFields = { ...fields };
  const result: KeyChangeFields = { ...out, tasks: unset(tasks) ? (c.tasks === 'own' ? 'own' : undefined) : (tasks ?? undefined) };
  if (result.tasks === undefined) delete result.tasks;
  if (creating && out.models === undefined && c.models) result.models = [...c.models];
  if (unset(out.expires_at) && c.expiresAt) result.expires_at = c.expiresAt.toISOString();
  if (unset(out.budget) && caller.budget.limit !== null)
    result.budget = { credit_limit: caller.budget.limit, period: caller.budget.period };
  const wholeLimits = unset(out.limits);
  if (wholeLimits || out.limits) {
    const limits: KeyLimitFields = wholeLimits ? {} : { ...out.limits };
    for (const [wire, field] of LIMIT_FIELDS)
      if (limits[wire] === null || ((creating || wholeLimits) && limits[wire] === undefined)) limits[wire] = c.limits[field];
    result.limits = limits;
  }
  return result as Omit<T, 'tasks'> & KeyChangeFields;
}

function checkModels(catalogue: ModelCatalogue, caller: ApiKeyRecord, models: string[] | null) {
  if (!models) return;
  for (const m of models) {
    const model = catalogue.get(m);
    if (!model || !catalogue.groupAllows(caller.group, model.id))
      throw exceeds(
        'group',
        `"models" names ${JSON.stringify(m.slice(0, 200))}, which is outside the account's group "${caller.group}".`,
        'models',
      );
  }
}

function gatewayLimit(limits: AccountBoundsDeps['gatewayLimits'], field: keyof KeyLimits): number | null {
  const v =
    field === 'requestsPerMinute' ? limits.requestsPerMinutePerKey : field === 'concurrentStreams' ? limits.concurrentStreamsPerKey : 0;
  return v > 0 ? v : null;
}
