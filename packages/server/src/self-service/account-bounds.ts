import { GatewayError, type KeyLimits, type ModelCatalogue, type Principal, type QuotaRepository } from '@gateway/core';
import type { KeyBoundsCheck } from '../admin/admin-service';

/** A 400 naming the bound a self-service key would exceed; every such code starts with `exceeds_`. */
const exceeds = (bound: string, message: string, param: string) =>
  new GatewayError('invalid_request', message, { code: `exceeds_${bound}`, param });

const LIMIT_NAMES: Array<[keyof KeyLimits, string]> = [
  ['requestsPerMinute', 'requests_per_minute'],
  ['tokensPerMinute', 'tokens_per_minute'],
  ['concurrentStreams', 'concurrent_streams'],
];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface AccountBoundsDeps {
  catalogue: ModelCatalogue;
  quotas: QuotaRepository;
  /** the gateway-wide per-key limits (config `limits`; 0 = unlimited) */
  gatewayLimits: { requestsPerMinutePerKey: number; concurrentStreamsPerKey: number };
}

/**
 * What an account admin may give a key: what the platform admin granted the account, never more. The group is the
 * caller's own (its key's group, which bounds the models); models stay inside the caller's own allowlist; a budget
 * stays within the account's credit quota; each rate limit stays within the ceiling that binds the caller (its key's
 * own, else the gateway's per-key limit). It reads the body before it is parsed: a malformed field is left to the
 * parser's own `invalid_*` error.
 */
export function accountBounds(deps: AccountBoundsDeps, caller: Principal): KeyBoundsCheck {
  return async ({ group, body }) => {
    if (group !== caller.group)
      throw exceeds('group', `The key's group must be the account's group "${caller.group}", not "${group.slice(0, 64)}".`, 'group');
    checkModels(deps.catalogue, caller, body.models);
    if (isObject(body.budget) && (typeof body.budget.credit_limit === 'number' || body.budget.credit_limit === null)) {
      const quota = await deps.quotas.get(caller.accountId);
      const asked = body.budget.credit_limit;
      if (quota.limit !== null && (asked === null || asked > quota.limit))
        throw exceeds(
          'quota',
          `The key's budget (${asked ?? 'unlimited'} credits) exceeds the account's credit quota of ${quota.limit} credits.`,
          'budget.credit_limit',
        );
    }
    if (isObject(body.limits))
      for (const [field, wire] of LIMIT_NAMES) {
        const asked = body.limits[wire];
        const ceiling = caller.limits?.[field] ?? gatewayCeiling(deps.gatewayLimits, field);
        if (typeof asked === 'number' && ceiling !== null && asked > ceiling)
          throw exceeds('rate_limit', `"limits.${wire}" (${asked}) exceeds the account's ceiling of ${ceiling}.`, `limits.${wire}`);
      }
  };
}

function checkModels(catalogue: ModelCatalogue, caller: Principal, models: unknown) {
  if (models === undefined) return;
  if (models === null) {
    if (caller.models)
      throw exceeds(
        'allowlist',
        `The key may call only the models this account admin's key may call (${caller.models.join(', ')}), not every model of the group.`,
        'models',
      );
    return;
  }
  if (!Array.isArray(models)) return;
  for (const m of models) {
    if (typeof m !== 'string') continue;
    const model = catalogue.get(m);
    if (!model || !catalogue.groupAllows(caller.group, model.id))
      throw exceeds(
        'group',
        `"models" names ${JSON.stringify(m.slice(0, 200))}, which is outside the account's group "${caller.group}".`,
        'models',
      );
    if (caller.models && !caller.models.includes(model.id))
      throw exceeds(
        'allowlist',
        `"models" names ${JSON.stringify(m.slice(0, 200))}, outside the models this account admin's key may call (${caller.models.join(', ')}).`,
        'models',
      );
  }
}

function gatewayCeiling(limits: AccountBoundsDeps['gatewayLimits'], field: keyof KeyLimits): number | null {
  const v =
    field === 'requestsPerMinute' ? limits.requestsPerMinutePerKey : field === 'concurrentStreams' ? limits.concurrentStreamsPerKey : 0;
  return v > 0 ? v : null;
}
