import type { Knex } from 'knex';
import type {
  AllAccountsUsageFilter,
  DailyUsageTotal,
  UsageFilter,
  UsageGroup,
  UsageGrouping,
  UsageQuery,
  UsageRecord,
  UsageSummaryFilter,
} from '@gateway/core';

const num = (v: unknown) => (v === null || v === undefined ? undefined : Number(v));

function toRecord(r: Record<string, any>): UsageRecord {
  return {
    id: String(r.id),
    createdAt: new Date(r.created_at),
    requestId: r.request_id,
    accountId: r.account_id,
    keyId: r.key_id,
    model: r.model,
    format: r.format,
    status: r.status,
    httpStatus: Number(r.http_status),
    errorCode: r.error_code,
    inputTokens: num(r.input_tokens),
    outputTokens: num(r.output_tokens),
    cachedTokens: num(r.cached_tokens),
    cacheWriteTokens: num(r.cache_write_tokens),
    reasoningTokens: num(r.reasoning_tokens),
    latencyMs: num(r.latency_ms),
    ttftMs: num(r.ttft_ms) ?? null,
    taskId: r.task_id,
    idempotencyKey: r.idempotency_key,
    provider: r.provider,
    upstreamRequestId: r.upstream_request_id ?? null,
    attempts: num(r.attempts),
    credits: num(r.credits),
    warnings: r.warnings ? (typeof r.warnings === 'string' ? JSON.parse(r.warnings) : r.warnings) : [],
    video: videoOf(r),
  };
}

/** The usage row's video shapes: null on rows that are not about a video task. */
function videoOf(r: Record<string, any>): UsageRecord['video'] {
  if (r.video_requested_seconds === null || r.video_requested_seconds === undefined) return null;
  const delivered =
    r.video_delivered_seconds === null || r.video_delivered_seconds === undefined
      ? null
      : { seconds: Number(r.video_delivered_seconds), resolution: r.video_delivered_resolution };
  return { requested: { seconds: Number(r.video_requested_seconds), resolution: r.video_requested_resolution }, delivered };
}

export class KnexUsageQuery implements UsageQuery {
  constructor(private readonly db: Knex) {}

  private filtered(f: Omit<UsageFilter, 'limit' | 'after' | 'accountId'> & { accountId?: string }): Knex.QueryBuilder {
    const q = this.db('usage_log');
    if (f.accountId !== undefined) q.where({ account_id: f.accountId });
    if (f.from) q.where('created_at', '>=', f.from);
    if (f.to) q.where('created_at', '<', f.to);
    const eq: Array<[Exclude<keyof UsageFilter, 'limit' | 'after' | 'from' | 'to' | 'accountId'>, string]> = [
      ['keyId', 'key_id'],
      ['provider', 'provider'],
      ['model', 'model'],
      ['format', 'format'],
      ['status', 'status'],
      ['taskId', 'task_id'],
      ['requestId', 'request_id'],
      ['idempotencyKey', 'idempotency_key'],
    ];
    for (const [k, col] of eq) if (f[k] !== undefined) q.where(col, f[k] as string);
    return q;
  }

  async list(f: UsageFilter | AllAccountsUsageFilter): Promise<{ rows: UsageRecord[]; hasMore: boolean }> {
    const q = this.filtered(f)
      .orderBy('id', 'desc')
      .limit(f.limit + 1);
    if (f.after !== undefined) q.where('id', '<', f.after);
    const rows = await q;
    return { rows: rows.slice(0, f.limit).map(toRecord), hasMore: rows.length > f.limit };
  }

  async dailyTotals(f: Omit<UsageFilter, 'limit' | 'after'>): Promise<DailyUsageTotal[]> {
    const daily = fromRollup(f);
    const rows = await (daily ? this.rolled(f) : this.filtered(f))
      .select(
        this.db.raw(`${daily ? ROLLUP_GROUP.day : GROUP_COLUMN.day} as day`),
        this.db.raw(`${daily ? ROLLUP_GROUP.model : 'model'} as model`),
      )
      .select(this.db.raw(daily ? 'sum(requests) as requests' : REQUESTS))
      .sum({ input_tokens: 'input_tokens', output_tokens: 'output_tokens' })
      .groupByRaw(`1, 2`)
      .orderByRaw('1 desc, 2 asc');
    return rows.map((r: Record<string, any>) => ({
      day: r.day,
      model: r.model ?? null,
      requests: Number(r.requests),
      inputTokens: Number(r.input_tokens ?? 0),
      outputTokens: Number(r.output_tokens ?? 0),
    }));
  }

  /**
   * Totals per group: from the daily rollup (usage_daily, kept in step with the raw rows by a trigger, migration 020)
   * when the filters are ones it keeps and the time bounds whole UTC days, else from the raw rows.
   */
  async summary(f: UsageSummaryFilter): Promise<{ groups: UsageGroup[]; hasMore: boolean }> {
    const q = fromRollup(f)
      ? this.rolled(f)
          .select(this.db.raw(`${ROLLUP_GROUP[f.groupBy]} as grp`))
          .select(this.db.raw('sum(requests) as requests'))
          .sum({ input_tokens: 'input_tokens', output_tokens: 'output_tokens', credits: 'credits', refunds: 'refunds' })
          .sum({ video_seconds_requested: 'video_seconds_requested', video_seconds_delivered: 'video_seconds_delivered' })
      : this.filtered(f)
          .select(this.db.raw(`${GROUP_COLUMN[f.groupBy]} as grp`))
          .select(this.db.raw(REQUESTS))
          .sum({ input_tokens: 'input_tokens', output_tokens: 'output_tokens' })
          .select(this.db.raw('coalesce(sum(case when credits > 0 then credits end), 0) as credits'))
          .select(this.db.raw('coalesce(-sum(case when credits < 0 then credits end), 0) as refunds'))
          // settlement rows carry both shapes; creation rows only the request, so they stay out of both sums
          .select(this.db.raw(SETTLED_SECONDS('requested')))
          .select(this.db.raw(SETTLED_SECONDS('delivered')));
    q.groupByRaw('1')
      .orderByRaw(f.groupBy === 'day' ? '1 desc' : '1 asc nulls last')
      .limit(f.limit + 1);
    // a key's rows all carry its account: known even for a key the database does not hold (the config file's)
    if (f.groupBy === 'key') q.select(this.db.raw(`max(nullif(account_id, '')) as key_account`));
    const rows = await q;
    const keys = f.groupBy === 'key' ? await this.keysNamed(rows.slice(0, f.limit).map((r: Record<string, any>) => r.grp)) : null;
    return {
      hasMore: rows.length > f.limit,
      groups: rows.slice(0, f.limit).map((r: Record<string, any>) => ({
        group: r.grp ?? null,
        ...(keys && { keyName: keys.get(r.grp)?.name ?? null, account: keys.get(r.grp)?.account_id ?? r.key_account ?? null }),
        requests: Number(r.requests),
        inputTokens: Number(r.input_tokens ?? 0),
        outputTokens: Number(r.output_tokens ?? 0),
        credits: Number(r.credits),
        refunds: Number(r.refunds),
        videoSecondsRequested: Number(r.video_seconds_requested),
        videoSecondsDelivered: Number(r.video_seconds_delivered),
      })),
    };
  }

  /** The rollup rows the filter selects (fromRollup(f) said it can). */
  private rolled(f: RollupFilter): Knex.QueryBuilder {
    const q = this.db('usage_daily');
    if (f.from) q.where('day', '>=', utcDay(f.from));
    if (f.to) q.where('day', '<', utcDay(f.to));
    const eq: Array<[keyof RollupFilter, string]> = [
      ['accountId', 'account_id'],
      ['keyId', 'key_id'],
      ['provider', 'provider'],
      ['model', 'model'],
      ['format', 'format'],
      ['status', 'status'],
    ];
    for (const [k, col] of eq) if (f[k] !== undefined) q.where(col, f[k] as string);
    return q;
  }

  /** The keys' names and accounts, for groups by key (one lookup by primary key, after the aggregate). */
  private async keysNamed(ids: Array<string | null>): Promise<Map<string, { name: string | null; account_id: string }>> {
    const wanted = ids.filter((id): id is string => !!id);
    const rows = wanted.length ? await this.db('api_keys').whereIn('id', wanted).select('id', 'name', 'account_id') : [];
    return new Map(rows.map((r: Record<string, any>) => [r.id, { name: r.name ?? null, account_id: r.account_id }]));
  }
}

type RollupFilter = Omit<UsageFilter, 'limit' | 'after' | 'accountId'> & { accountId?: string };

const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const wholeDay = (d: Date | undefined) => d === undefined || d.getTime() % 86_400_000 === 0;

/** The rollup answers filters on what it keeps, over whole UTC days; a task, request or idempotency key needs raw rows. */
function fromRollup(f: RollupFilter): boolean {
  return f.taskId === undefined && f.requestId === undefined && f.idempotencyKey === undefined && wholeDay(f.from) && wholeDay(f.to);
}

/** The rollup's expression for each grouping ('' stands for null there). */
const ROLLUP_GROUP: Record<UsageGrouping, string> = {
  day: `to_char(day, 'YYYY-MM-DD')`,
  model: `nullif(model, '')`,
  key: `nullif(key_id, '')`,
  account: `nullif(account_id, '')`,
};

/** Requests: a video task's settlement and refund rows are its bookkeeping, not requests of their own. */
const REQUESTS = `count(*) filter (where status <> 'refunded' and not (status = 'succeeded' and task_id is not null)) as requests`;

const SETTLED_SECONDS = (which: 'requested' | 'delivered') =>
  `coalesce(sum(case when video_delivered_seconds is not null then video_${which}_seconds end), 0) as video_seconds_${which}`;

/** The usage_log expression each grouping groups by (days in UTC). */
const GROUP_COLUMN: Record<UsageGrouping, string> = {
  day: `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`,
  model: 'model',
  key: 'key_id',
  account: 'account_id',
};
