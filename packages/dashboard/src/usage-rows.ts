import { call, getJson, query } from './api';
import type { Session } from './session';
import type { Scope } from './usage-analytics';
import type { UsageRow } from './usage-row';

export type { UsageRow };

/** The analytics scope, narrowed further to one status or task for the request log. */
export interface UsageFilters extends Scope {
  status?: string;
  task?: string;
}

/** The datetime-local value as ISO 8601 (the gateway reads Unix seconds or ISO). */
const iso = (v?: string) => (v ? new Date(v).toISOString() : undefined);

/**
 * The admin reads every account's log; an account key reads its own through the public API, whose parameter names
 * differ. One function picks the route so the pages never branch on it.
 */
export function usagePath(session: Session, f: UsageFilters, limit: number, format?: 'csv'): string {
  if (session.role === 'admin')
    return `/admin/usage/requests${query({
      from: iso(f.from),
      to: iso(f.to),
      account: f.account,
      key: f.key,
      model: f.model,
      provider: f.provider,
      status: f.status,
      task_id: f.task,
      limit,
      format,
    })}`;
  return `/v1/usage${query({
    start_time: iso(f.from),
    end_time: iso(f.to),
    key_id: f.key,
    model: f.model,
    provider: f.provider,
    status: f.status,
    task_id: f.task,
    limit,
    export: format,
  })}`;
}

export async function usageRows(session: Session, f: UsageFilters, limit = 200): Promise<UsageRow[]> {
  return (await getJson<{ data: UsageRow[] }>(session.key, usagePath(session, f, limit))).data;
}

/** The CSV export is the gateway's own (its columns and its defusing of formula-like cells), for either role. */
export function usageCsv(session: Session, f: UsageFilters, limit = 1000): Promise<Response> {
  return call(session.key, usagePath(session, f, limit, 'csv'));
}
