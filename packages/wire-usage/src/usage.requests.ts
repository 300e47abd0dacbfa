import type { Request, Response } from 'express';
import { invalid, type AllAccountsUsageFilter, type UsageQuery } from '@gateway/core';
import { csvTable } from '@gateway/http-kit';
import { adminWantsCsv, allAccountsFilter, limitParam, sendCsv, textParam } from './usage.params';
import { encodeUsageRow } from './usage.router';

/** The CSV columns of the request log: the row's scalar fields, the account first. */
export const CSV_COLUMNS = [
  'id',
  'created_at',
  'account',
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
  'ttft_ms',
  'credits',
  'task_id',
] as const;

/**
 * GET /admin/usage/requests: the request log of every account, newest first, filtered like GET /admin/usage (account,
 * key, model, provider, status, time) and paged with `after` (the last row's id). JSON rows as /v1/usage shows them
 * plus `account`, or CSV (`format=csv` or `Accept: text/csv`; `x-has-more` and `x-last-id` carry the paging).
 */
export async function sendUsageRequests(usage: Pick<UsageQuery, 'list'>, req: Request, res: Response): Promise<void> {
  const csv = adminWantsCsv(req);
  const after = textParam(req, 'after');
  if (after !== undefined && !/^\d{1,18}$/.test(after)) throw invalid('invalid_cursor', '"after" must be the id of a usage row.', 'after');
  const filter: AllAccountsUsageFilter = {
    ...allAccountsFilter(req),
    taskId: textParam(req, 'task_id'),
    requestId: textParam(req, 'request_id'),
    limit: limitParam(req, 100, 1000),
    after,
  };
  const page = await usage.list(filter);
  const data = page.rows.map((r) => ({ ...encodeUsageRow(r), account: r.accountId }));
  const lastId = data[data.length - 1]?.id ?? null;
  if (csv) sendCsv(res, csvTable(CSV_COLUMNS, data), page.hasMore, lastId);
  else res.json({ object: 'list', data, has_more: page.hasMore, first_id: data[0]?.id ?? null, last_id: lastId });
}
