import type { Request, Response } from 'express';
import { invalid, LATENCY_GROUPINGS, type LatencyGrouping, type UsageLatencyGroup, type UsageQuery } from '@gateway/core';
import { allAccountsFilter, limitParam, onlyParams, textParam } from './usage.params';

const PARAMS = ['account', 'key', 'model', 'provider', 'wire_format', 'from', 'to', 'group_by', 'limit'];

export const encodeLatencyGroup = (g: UsageLatencyGroup) => ({
  group: g.group,
  requests: g.requests,
  errors: g.errors,
  error_rate: g.requests ? g.errors / g.requests : 0,
  latency_p50_ms: g.latencyP50Ms,
  latency_p95_ms: g.latencyP95Ms,
});

/**
 * GET /admin/usage/latency: requests, errors, error rate and p50/p95 latency per model or provider over the time range
 * (every row of it, not a page), filtered like GET /admin/usage; an unknown parameter or value is a 400.
 */
export async function sendUsageLatency(usage: Pick<UsageQuery, 'latency'>, req: Request, res: Response): Promise<void> {
  onlyParams(req, PARAMS);
  const groupBy = textParam(req, 'group_by') ?? 'model';
  if (!(LATENCY_GROUPINGS as readonly string[]).includes(groupBy))
    throw invalid('invalid_group_by', `"group_by" must be one of ${LATENCY_GROUPINGS.join(', ')}.`, 'group_by');
  const filter = { ...allAccountsFilter(req, false), groupBy: groupBy as LatencyGrouping, limit: limitParam(req, 100, 10_000) };
  const { groups, hasMore } = await usage.latency(filter);
  res.json({ object: 'list', group_by: groupBy, data: groups.map(encodeLatencyGroup), has_more: hasMore });
}
