import { query } from './query-string';
import type { Caller } from './roles';

/** A time range picked on the Usage page: a preset counted back from now, or from/to (datetime-local values). */
export const RANGES: Array<[string, string, number]> = [
  ['1h', 'Last hour', 3600],
  ['24h', 'Last 24 hours', 86_400],
  ['7d', 'Last 7 days', 7 * 86_400],
  ['30d', 'Last 30 days', 30 * 86_400],
];

/** The range as ISO instants: a preset starts that long before now and stays open (rows still coming in count); a custom range keeps its ends (either may be open). */
export function rangeOf(preset: string, from: string, to: string, now: number): { from?: string; to?: string } {
  const seconds = RANGES.find(([id]) => id === preset)?.[2];
  if (seconds) return { from: new Date(now - seconds * 1000).toISOString(), to: undefined };
  return { from: from ? new Date(from).toISOString() : undefined, to: to ? new Date(to).toISOString() : undefined };
}

export type Grouping = 'day' | 'model' | 'key' | 'account';

/** One group of GET /admin/usage or /v1/usage?group_by=: totals over the whole range, not a page of rows. */
export interface SpendGroup {
  group: string | null;
  key_name?: string | null;
  account?: string | null;
  requests: number;
  credits: number;
  refunds: number;
}

export interface LatencyGroup {
  group: string | null;
  requests: number;
  errors: number;
  error_rate: number;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
}

export interface Scope {
  from?: string;
  to?: string;
  account?: string;
  key?: string;
  model?: string;
  provider?: string;
}

/** The platform admin reads every account's totals; an account's key its own (a member's: its key's alone). */
export function spendPath(caller: Caller, by: Grouping, s: Scope): string {
  if (caller === 'platform')
    return `/admin/usage${query({ group_by: by, from: s.from, to: s.to, account: s.account, key: s.key, model: s.model, provider: s.provider, limit: 1000 })}`;
  return `/v1/usage${query({ group_by: by, start_time: s.from, end_time: s.to, key_id: s.key, model: s.model, provider: s.provider, limit: 1000 })}`;
}

/** A group's name on screen: a key by its name (its id when it has none), a missing value as "—". */
export const groupLabel = (g: SpendGroup) => (g.key_name !== undefined ? (g.key_name ?? g.group ?? '—') : (g.group ?? '—'));

/** Spend per day, oldest first (the API answers newest day first). */
export const spendOverTime = (days: SpendGroup[]) =>
  [...days].reverse().map((d) => ({ label: d.group ?? '—', credits: d.credits - d.refunds, requests: d.requests }));
