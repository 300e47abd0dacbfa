import type { Request, RequestHandler } from 'express';
import { invalid, type UsageGroup, type UsageQuery, type UsageSummaryFilter } from '@gateway/core';
import { csvField } from './usage.csv';
import { groupByParam, limitParam, textParam, timeParam } from './usage.params';

const COLUMNS = [
  'group',
  'requests',
  'input_tokens',
  'output_tokens',
  'credits',
  'refunds',
  'video_seconds_requested',
  'video_seconds_delivered',
] as const;

export const encodeUsageGroup = (g: UsageGroup) => ({
  group: g.group,
  requests: g.requests,
  input_tokens: g.inputTokens,
  output_tokens: g.outputTokens,
  credits: g.credits,
  refunds: g.refunds,
  video_seconds_requested: g.videoSecondsRequested,
  video_seconds_delivered: g.videoSecondsDelivered,
});

export function usageCsv(groupBy: string, groups: UsageGroup[]): string {
  const header = [groupBy, ...COLUMNS.slice(1)].join(',');
  const lines = groups.map((g) => {
    const row = encodeUsageGroup(g);
    return COLUMNS.map((c) => csvField(row[c])).join(',');
  });
  return [header, ...lines].join('\r\n') + '\r\n';
}

/**
 * GET /admin/usage: every account's usage, filtered by account, key, model, provider, status and time, grouped by
 * day, model, key or account, with requests, tokens, credits, refunds and settled video seconds (requested and
 * delivered) per group. JSON, or CSV with a header row
 * (`format=csv` or `Accept: text/csv`). Bounded: at most `limit` groups (default 100, up to 10,000), `has_more` says
 * when there were more.
 */
export function adminUsageHandler(usage: UsageQuery): RequestHandler {
  return async (req, res) => {
    const format = textParam(req, 'format');
    if (format !== undefined && format !== 'json' && format !== 'csv')
      throw invalid('invalid_format', '"format" must be "json" or "csv".', 'format');
    const filter: UsageSummaryFilter = {
      accountId: textParam(req, 'account'),
      keyId: textParam(req, 'key'),
      model: textParam(req, 'model'),
      provider: textParam(req, 'provider'),
      status: textParam(req, 'status'),
      format: textParam(req, 'wire_format'),
      from: timeParam(req, 'from'),
      to: timeParam(req, 'to'),
      groupBy: groupByParam(req) ?? 'day',
      limit: limitParam(req, 100, 10_000),
    };
    const { groups, hasMore } = await usage.summary(filter);
    if (format === 'csv' || (format === undefined && prefersCsv(req))) {
      res.type('text/csv; charset=utf-8');
      res.setHeader('x-has-more', String(hasMore));
      res.send(usageCsv(filter.groupBy, groups));
      return;
    }
    res.json({ object: 'list', group_by: filter.groupBy, data: groups.map(encodeUsageGroup), has_more: hasMore });
  };
}

/** `Accept: text/csv` (and not JSON first). */
export const prefersCsv = (req: Request) => req.accepts(['application/json', 'text/csv']) === 'text/csv';
