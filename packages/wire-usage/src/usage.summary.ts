import type { Request, Response } from 'express';
import type { UsageGroup, UsageQuery, UsageSummaryFilter } from '@gateway/core';
import { csvField } from '@gateway/http-kit';
import { adminWantsCsv, allAccountsFilter, groupByParam, limitParam, onlyParams, sendCsv } from './usage.params';

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
  // grouped by key: who it is, not only its id
  ...(g.account !== undefined && { key_name: g.keyName ?? null, account: g.account }),
  requests: g.requests,
  input_tokens: g.inputTokens,
  output_tokens: g.outputTokens,
  credits: g.credits,
  refunds: g.refunds,
  video_seconds_requested: g.videoSecondsRequested,
  video_seconds_delivered: g.videoSecondsDelivered,
});

export function usageCsv(groupBy: string, groups: UsageGroup[]): string {
  const byKey = groupBy === 'key';
  const columns: string[] = byKey ? ['group', 'key_name', 'account', ...COLUMNS.slice(1)] : [...COLUMNS];
  const header = [groupBy, ...columns.slice(1)].join(',');
  const lines = groups.map((g) => {
    const row = encodeUsageGroup(g) as Record<string, unknown>;
    return columns.map((c) => csvField(row[c])).join(',');
  });
  return [header, ...lines].join('\r\n') + '\r\n';
}

/**
 * GET /admin/usage: every account's usage, filtered by account, key, model, provider, status and time, grouped by
 * day, model, key or account, with requests, tokens, credits, refunds and settled video seconds (requested and
 * delivered) per group; grouped by key, each group names the key and its account. JSON, or CSV with a header row
 * (`export=csv`, the older `format=csv`, or `Accept: text/csv`); a parameter or value it does not know is a 400. Bounded: at most `limit` groups (default 100, up to 10,000), `has_more` says
 * when there were more.
 */
export async function sendUsageSummary(usage: UsageQuery, req: Request, res: Response): Promise<void> {
  onlyParams(req, ADMIN_USAGE_PARAMS);
  const csv = adminWantsCsv(req);
  const filter: UsageSummaryFilter = {
    ...allAccountsFilter(req),
    groupBy: groupByParam(req) ?? 'day',
    limit: limitParam(req, 100, 10_000),
  };
  const { groups, hasMore } = await usage.summary(filter);
  if (csv) sendCsv(res, usageCsv(filter.groupBy, groups), hasMore);
  else res.json({ object: 'list', group_by: filter.groupBy, data: groups.map(encodeUsageGroup), has_more: hasMore });
}

const ADMIN_USAGE_PARAMS = [
  'account',
  'key',
  'model',
  'provider',
  'status',
  'wire_format',
  'from',
  'to',
  'group_by',
  'limit',
  'export',
  'format',
];
