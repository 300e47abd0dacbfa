import { call, getJson, query } from './api';
import { csvField } from './csv';
import type { Session } from './session';
import type { UsageRow } from './usage-row';

export type { UsageRow };

export interface UsageFilters {
  from?: string;
  to?: string;
  account?: string;
  key?: string;
  model?: string;
  provider?: string;
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
  })}`;
}

export async function usageRows(session: Session, f: UsageFilters, limit = 200): Promise<UsageRow[]> {
  return (await getJson<{ data: UsageRow[] }>(session.key, usagePath(session, f, limit))).data;
}

const CSV_COLUMNS: Array<keyof UsageRow> = [
  'id',
  'created_at',
  'key_id',
  'request_id',
  'model',
  'provider',
  'format',
  'status',
  'http_status',
  'error_code',
  'input_tokens',
  'output_tokens',
  'latency_ms',
  'credits',
  'task_id',
];

/** The CSV export: the admin's comes from the gateway (GET /admin/usage/requests?format=csv); /v1/usage has no CSV, so an account's is written here from the same rows. */
export async function usageCsv(session: Session, f: UsageFilters, limit = 1000): Promise<Response> {
  if (session.role === 'admin') return call(session.key, usagePath(session, f, limit, 'csv'));
  const rows = await usageRows(session, f, limit);
  const text = [CSV_COLUMNS.join(','), ...rows.map((r) => CSV_COLUMNS.map((c) => csvField(r[c])).join(','))].join('\r\n') + '\r\n';
  return new Response(text, { headers: { 'Content-Type': 'text/csv' } });
}
