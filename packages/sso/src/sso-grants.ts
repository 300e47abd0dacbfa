import type { SsoGrant } from '@gateway/core';

/** The config file's `sso.roles` entry: a value of the role claim -> platform admin, or an account and a role there. */
export type SsoRoleMapping = { platformAdmin: true } | { account: string; role: 'admin' | 'member'; group?: string };

/** The claim's values as a list: providers send groups as an array, some a single string or a space-separated one. */
export function claimValues(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.filter((v): v is string => typeof v === 'string');
  if (typeof claim === 'string') return claim.split(/[\s,]+/).filter(Boolean);
  return [];
}

const rank = (g: SsoGrant) => (g.platformAdmin ? 2 : g.role === 'admin' ? 1 : 0);

/**
 * What a person may do, from their claim values and the config file's `sso.roles`: the strongest mapping any value
 * matches (platform admin, then account admin, then member; among equals the first in the file). Null: no role here.
 */
export function grantFor(claim: unknown, roles: Readonly<Record<string, SsoRoleMapping>> = {}): SsoGrant | null {
  const values = new Set(claimValues(claim));
  let best: SsoGrant | null = null;
  for (const [value, m] of Object.entries(roles)) {
    if (!values.has(value)) continue;
    const grant: SsoGrant =
      'platformAdmin' in m
        ? { platformAdmin: true }
        : { platformAdmin: false, accountId: m.account, role: m.role, group: m.group ?? 'default' };
    if (!best || rank(grant) > rank(best)) best = grant;
  }
  return best;
}
