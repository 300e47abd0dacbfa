import type { Request, Response } from 'express';
import { invalid, USAGE_GROUPINGS, USAGE_STATUSES, type UsageGrouping, type UsageSummaryFilter } from '@gateway/core';

/** A time bound: Unix seconds or an ISO 8601 date. */
export function timeParam(req: Request, name: string): Date | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid('invalid_time', `"${name}" must be Unix seconds or an ISO 8601 date.`, name);
  const d = /^\d{1,12}$/.test(v) ? new Date(Number(v) * 1000) : new Date(v);
  if (Number.isNaN(d.getTime())) throw invalid('invalid_time', `"${name}" must be Unix seconds or an ISO 8601 date.`, name);
  return d;
}

/** One plain string filter. */
export function textParam(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > 256 || v.includes('\u0000'))
    throw invalid('invalid_filter', `"${name}" must be one string of at most 256 characters.`, name);
  return v;
}

export function limitParam(req: Request, fallback: number, max: number): number {
  const raw = textParam(req, 'limit') ?? String(fallback);
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1 || limit > max)
    throw invalid('invalid_limit', `"limit" must be an integer from 1 to ${max}.`, 'limit');
  return limit;
}

/**
 * `export=json|csv`: how /v1/usage and /admin/usage (and /admin/usage/requests) answer, the same parameter on all.
 * The admin routes also take their older `format=csv`; /v1/usage's `format` is the wire-format filter.
 */
export function exportParam(req: Request, legacyName?: string): 'json' | 'csv' | undefined {
  for (const name of ['export', ...(legacyName ? [legacyName] : [])]) {
    const v = textParam(req, name);
    if (v === undefined) continue;
    if (v !== 'json' && v !== 'csv') throw invalid(`invalid_${name}`, `"${name}" must be "json" or "csv".`, name);
    return v;
  }
  return undefined;
}

/** A usage row's status: one of those rows can have (anything else would only ever match nothing). */
export function statusParam(req: Request): string | undefined {
  const v = textParam(req, 'status');
  if (v !== undefined && !(USAGE_STATUSES as readonly string[]).includes(v))
    throw invalid('invalid_status', `"status" must be one of ${USAGE_STATUSES.join(', ')}.`, 'status');
  return v;
}

/** A parameter the route does not take is refused (a typo would otherwise silently answer everything). */
export function onlyParams(req: Request, known: readonly string[]): void {
  const unknown = Object.keys(req.query).find((k) => !known.includes(k));
  if (unknown !== undefined)
    throw invalid(
      'unknown_parameter',
      `Unknown query parameter "${unknown.slice(0, 64)}"; this route takes ${known.join(', ')}.`,
      unknown.slice(0, 64),
    );
}

export function groupByParam(req: Request): UsageGrouping | undefined {
  const v = textParam(req, 'group_by');
  if (v !== undefined && !(USAGE_GROUPINGS as readonly string[]).includes(v))
    throw invalid('invalid_group_by', `"group_by" must be one of ${USAGE_GROUPINGS.join(', ')}.`, 'group_by');
  return v as UsageGrouping | undefined;
}

/** The admin routes' shared filters, checked in this order; the latency route has no `status`. */
export const allAccountsFilter = (req: Request, status = true): Omit<UsageSummaryFilter, 'groupBy' | 'limit'> => ({
  accountId: textParam(req, 'account'),
  keyId: textParam(req, 'key'),
  model: textParam(req, 'model'),
  provider: textParam(req, 'provider'),
  ...(status && { status: statusParam(req) }),
  format: textParam(req, 'wire_format'),
  from: timeParam(req, 'from'),
  to: timeParam(req, 'to'),
});

/** The admin routes' CSV choice: `export=csv`, the older `format=csv`, or else `Accept: text/csv` (not JSON first). */
export function adminWantsCsv(req: Request): boolean {
  const format = exportParam(req, 'format');
  return format === 'csv' || (format === undefined && req.accepts(['application/json', 'text/csv']) === 'text/csv');
}

/** A CSV answer with its paging in headers: `x-has-more`, and `x-last-id` for a page of rows. */
export function sendCsv(res: Response, csv: string, hasMore: boolean, lastId?: string | null): void {
  res.type('text/csv; charset=utf-8');
  res.setHeader('x-has-more', String(hasMore));
  if (lastId) res.setHeader('x-last-id', lastId);
  res.send(csv);
}
