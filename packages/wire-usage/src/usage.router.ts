import { forbiddenRole, invalid, roleOf, type Principal, type UsageFilter, type UsageQuery, type UsageRecord } from '@gateway/core';
import {
  exportParam,
  groupByParam,
  limitParam,
  onlyParams,
  sendCsv,
  statusParam,
  textParam as text,
  timeParam as time,
} from './usage.params';
import { encodeUsageGroup, usageCsv } from './usage.summary';
import { CSV_COLUMNS } from './usage.requests';
import { csvTable, routeOf } from '@gateway/http-kit';
import { usageParams, usageResponse } from './usage.openapi';

/** What GET /v1/usage takes: anything else is a 400, never a silently ignored filter. */
const V1_USAGE_PARAMS = [
  'start_time',
  'end_time',
  'key_id',
  'provider',
  'model',
  'format',
  'status',
  'task_id',
  'batch_id',
  'request_id',
  'idempotency_key',
  'group_by',
  'limit',
  'after',
  'export',
];

/** The request log's CSV columns but `account`: a caller reads its own account only. */
const V1_CSV_COLUMNS = CSV_COLUMNS.filter((c) => c !== 'account');

export function encodeUsageRow(r: UsageRecord) {
  return {
    id: r.id,
    object: 'usage.record',
    created_at: Math.floor(r.createdAt.getTime() / 1000),
    request_id: r.requestId,
    key_id: r.keyId,
    model: r.model,
    format: r.format,
    status: r.status,
    http_status: r.httpStatus,
    error_code: r.errorCode ?? null,
    input_tokens: r.inputTokens ?? null,
    output_tokens: r.outputTokens ?? null,
    cached_tokens: r.cachedTokens ?? null,
    cache_write_tokens: r.cacheWriteTokens ?? null,
    reasoning_tokens: r.reasoningTokens ?? null,
    // the metered kinds' units (speech, transcription, rerank); `estimated`: the tokens are the gateway's own count
    characters: r.characters ?? null,
    audio_seconds: r.audioSeconds ?? null,
    search_units: r.searchUnits ?? null,
    estimated: r.estimated ?? false,
    latency_ms: r.latencyMs ?? null,
    ttft_ms: r.ttftMs ?? null,
    task_id: r.taskId ?? null,
    batch_id: r.batchId ?? null,
    idempotency_key: r.idempotencyKey ?? null,
    provider: r.provider ?? null,
    upstream_request_id: r.upstreamRequestId ?? null,
    attempts: r.attempts ?? null,
    warnings: r.warnings ?? [],
    credits: r.credits ?? null,
    // video tasks: the creation row shows what was asked, the settlement row both (docs/quotas.md)
    video: r.video ? { requested: r.video.requested, delivered: r.video.delivered ?? null } : null,
  };
}

/** A member key reads its own usage only (docs/admin.md, "Roles"); an account admin's key, any key's of the account. */
function memberKeyFilter(p: Principal, asked: string | undefined): string | undefined {
  if (roleOf(p) === 'admin') return asked;
  if (asked !== undefined && asked !== p.keyId) throw forbiddenRole("Reading another key's usage");
  return p.keyId;
}

export interface UsageRouterDeps {
  usageQuery: UsageQuery;
}

export const usageRoutes = [
  routeOf<UsageRouterDeps>()({
    method: 'get',
    path: '/v1/usage',
    summary: "Read the usage log of the key's account",
    description:
      'Rows newest first with daily totals per model for the same filters. After a create that timed out, look here for the task it made before resubmitting.',
    format: 'usage',
    auth: { kind: 'api-key', role: 'member', session: true },
    params: usageParams,
    response: usageResponse,
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      const usage = deps.usageQuery;
      onlyParams(req, V1_USAGE_PARAMS);
      const wanted = exportParam(req);
      const keyId = memberKeyFilter(principal, text(req, 'key_id'));
      const limit = limitParam(req, 100, 1000);
      const groupBy = groupByParam(req);
      const after = text(req, 'after');
      if (after !== undefined && !/^\d{1,18}$/.test(after))
        throw invalid('invalid_cursor', '"after" must be the id of a usage row.', 'after');
      const filter: Omit<UsageFilter, 'limit' | 'after'> = {
        accountId: principal.accountId,
        from: time(req, 'start_time'),
        to: time(req, 'end_time'),
        keyId,
        provider: text(req, 'provider'),
        model: text(req, 'model'),
        format: text(req, 'format'),
        status: statusParam(req),
        taskId: text(req, 'task_id'),
        batchId: text(req, 'batch_id'),
        requestId: text(req, 'request_id'),
        idempotencyKey: text(req, 'idempotency_key'),
      };
      const [page, totals, grouped] = await Promise.all([
        usage.list({ ...filter, limit, after }),
        usage.dailyTotals(filter),
        // the admin's grouping, within the caller's own account (limit bounds the groups as it bounds the rows)
        groupBy && usage.summary({ ...filter, groupBy, limit }),
      ]);
      const data = page.rows.map(encodeUsageRow);
      if (wanted === 'csv') {
        // the groups when grouped, else the page of rows (paging in the headers, as the admin's request log)
        if (grouped) sendCsv(res, usageCsv(groupBy!, grouped.groups), grouped.hasMore);
        else sendCsv(res, csvTable(V1_CSV_COLUMNS, data), page.hasMore, data.at(-1)?.id);
        return;
      }
      res.json({
        object: 'list',
        data,
        has_more: page.hasMore,
        first_id: data[0]?.id ?? null,
        last_id: data[data.length - 1]?.id ?? null,
        daily_totals: totals.map((t) => ({
          date: t.day,
          model: t.model,
          requests: t.requests,
          input_tokens: t.inputTokens,
          output_tokens: t.outputTokens,
        })),
        ...(grouped && { group_by: groupBy, groups: grouped.groups.map(encodeUsageGroup) }),
      });
    },
  }),
];
