import type { Knex } from 'knex';
import type {
  AllAccountsUsageFilter,
  DailyUsageTotal,
  UsageFilter,
  UsageGroup,
  UsageGrouping,
  UsageLatencyFilter,
  UsageLatencyGroup,
  UsageQuery,
  UsageRecord,
  UsageSummaryFilter,
} from '@gateway/core';
import { snakeCase } from './row-values';
import { columnsToUsageRecord } from './usage-row.codec';
import { rolledUpTo } from './usage-rollup';
import { planUsageSpans, type TimeSpan } from './usage-spans';

export class KnexUsageQuery implements UsageQuery {
  /** tests only: `rollup: false` reads the raw rows alone, the reference answer the planned one is compared with */
  constructor(
    private readonly db: Knex,
    private readonly options: { rollup?: boolean } = {},
  ) {}

  private filtered(f: RollupFilter, db: Knex = this.db): Knex.QueryBuilder {
    const q = db('usage_log');
    if (f.from) q.where('created_at', '>=', f.from);
    if (f.to) q.where('created_at', '<', f.to);
    return whereEqual(q, f, [
      'accountId',
      'keyId',
      'provider',
      'model',
      'format',
      'status',
      'taskId',
      'batchId',
      'requestId',
      'idempotencyKey',
    ]);
  }

  async list(f: UsageFilter | AllAccountsUsageFilter): Promise<{ rows: UsageRecord[]; hasMore: boolean }> {
    const q = this.filtered(f)
      .orderBy('id', 'desc')
      .limit(f.limit + 1);
    if (f.after !== undefined) q.where('id', '<', f.after);
    const rows = await q;
    return { rows: rows.slice(0, f.limit).map(columnsToUsageRecord), hasMore: rows.length > f.limit };
  }

  async dailyTotals(f: Omit<UsageFilter, 'limit' | 'after'>): Promise<DailyUsageTotal[]> {
    const rows = await this.grouped(f, ['day', 'model'], ['requests', 'input_tokens', 'output_tokens'], (q) =>
      q.orderByRaw('1 desc, 2 asc'),
    );
    return rows.map((r: Record<string, any>) => ({
      day: r.g0,
      model: r.g1 ?? null,
      requests: Number(r.requests),
      inputTokens: Number(r.input_tokens ?? 0),
      outputTokens: Number(r.output_tokens ?? 0),
    }));
  }

  /**
   * Totals per group: the whole UTC days from the daily rollup (usage_daily, built by a job, usage-rollup.ts) plus the
   * raw rows it does not hold yet, the partial days at the edges from the raw rows (planUsageSpans decides).
   */
  async summary(f: UsageSummaryFilter): Promise<{ groups: UsageGroup[]; hasMore: boolean }> {
    const measures: Measure[] = [...SUMMARY_MEASURES, ...(f.groupBy === 'key' ? (['key_account'] as const) : [])];
    const rows = await this.grouped(f, [f.groupBy], measures, (q) =>
      q.orderByRaw(f.groupBy === 'day' ? '1 desc' : '1 asc nulls last').limit(f.limit + 1),
    );
    const keys = f.groupBy === 'key' ? await this.keysNamed(rows.slice(0, f.limit).map((r: Record<string, any>) => r.g0)) : null;
    return {
      hasMore: rows.length > f.limit,
      groups: rows.slice(0, f.limit).map((r: Record<string, any>) => ({
        group: r.g0 ?? null,
        ...(keys && { keyName: keys.get(r.g0)?.name ?? null, account: keys.get(r.g0)?.account_id ?? r.key_account ?? null }),
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

  /** Latency percentiles and errors per model or provider over the range's raw rows (percentiles do not add up by day). */
  async latency(f: UsageLatencyFilter): Promise<{ groups: UsageLatencyGroup[]; hasMore: boolean }> {
    const column = f.groupBy === 'model' ? 'model' : 'provider';
    const rows = await this.filtered(f)
      .whereRaw(REQUEST_ROW)
      .select(this.db.raw(`${column} as g`))
      .select(this.db.raw('count(*) as requests'))
      .select(this.db.raw(`count(*) filter (where status in ('error', 'failed') or http_status >= 400) as errors`))
      .select(this.db.raw('percentile_cont(0.5) within group (order by latency_ms) as p50'))
      .select(this.db.raw('percentile_cont(0.95) within group (order by latency_ms) as p95'))
      .groupByRaw('1')
      .orderByRaw('1 asc nulls last')
      .limit(f.limit + 1);
    const ms = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));
    return {
      hasMore: rows.length > f.limit,
      groups: rows.slice(0, f.limit).map((r: Record<string, any>) => ({
        group: r.g ?? null,
        requests: Number(r.requests),
        errors: Number(r.errors),
        latencyP50Ms: ms(r.p50),
        latencyP95Ms: ms(r.p95),
      })),
    };
  }

  /**
   * The measures per group (g0, g1, … in the order of `groupings`) over the filter's range, shaped by `finish`: one
   * aggregate per span planUsageSpans gives (the rollup's whole days and, for the same days, the raw rows above its
   * watermark; the raw rows' partial days), added together. The watermark and the rollup are read in one snapshot
   * (repeatable read), so a job run between the two reads cannot count a row twice or miss it.
   */
  private async grouped(
    f: RollupFilter,
    groupings: UsageGrouping[],
    measures: Measure[],
    finish: (q: Knex.QueryBuilder) => Knex.QueryBuilder,
  ): Promise<Array<Record<string, any>>> {
    const plan = planUsageSpans(f, { rollup: this.options.rollup });
    if (!plan.rollup) return finish(this.combined(this.db, f, plan.raw, null, groupings, measures));
    return this.db.transaction(
      async (trx) => finish(this.combined(trx, f, plan.raw, { ...plan.rollup!, above: await rolledUpTo(trx) }, groupings, measures)),
      { isolationLevel: 'repeatable read', readOnly: true },
    );
  }

  private combined(
    db: Knex,
    f: RollupFilter,
    raw: TimeSpan[],
    rollup: (TimeSpan & { above: number }) | null,
    groupings: UsageGrouping[],
    measures: Measure[],
  ): Knex.QueryBuilder {
    const part = (q: Knex.QueryBuilder, group: Record<UsageGrouping, string>, measure: Record<Measure, string>) =>
      q
        .select(groupings.map((g, i) => db.raw(`${group[g]} as g${i}`)))
        .select(measures.map((m) => db.raw(`${measure[m]} as ${m}`)))
        .groupByRaw(groupings.map((_, i) => i + 1).join(', '));
    const span = (s: TimeSpan) => this.filtered({ ...f, from: s.from, to: s.to }, db);
    const parts = [
      ...(rollup
        ? [
            part(this.rolled({ ...f, ...rollup }, db), ROLLUP_GROUP, ROLLUP_MEASURE),
            part(span(rollup).where('id', '>', rollup.above), GROUP_COLUMN, RAW_MEASURE),
          ]
        : []),
      ...raw.map((s) => part(span(s), rawGroups(s), RAW_MEASURE)),
    ];
    return (
      db
        .from(db.raw(`(${parts.map(() => '?').join(' union all ')}) as parts`, parts))
        // days are grouped as dates (cheaper per raw row than text) and written as YYYY-MM-DD once per group
        .select(groupings.map((g, i) => db.raw(g === 'day' ? `to_char(g${i}, 'YYYY-MM-DD') as g${i}` : `g${i}`)))
        .select(measures.map((m) => db.raw(`${m === 'key_account' ? 'max' : 'sum'}(${m}) as ${m}`)))
        .groupByRaw(groupings.map((_, i) => i + 1).join(', '))
    );
  }

  /** The rollup rows of the filter's whole days (planUsageSpans said it can: its bounds are midnights). */
  private rolled(f: RollupFilter, db: Knex): Knex.QueryBuilder {
    const q = db('usage_daily');
    if (f.from) q.where('day', '>=', utcDay(f.from));
    if (f.to) q.where('day', '<', utcDay(f.to));
    return whereEqual(q, f, ['accountId', 'keyId', 'provider', 'model', 'format', 'status']);
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

/** `column = value` for each of the filter's fields that is given. */
function whereEqual(q: Knex.QueryBuilder, f: RollupFilter, fields: Array<keyof RollupFilter>): Knex.QueryBuilder {
  for (const k of fields) if (f[k] !== undefined) q.where(snakeCase(k), f[k] as string);
  return q;
}

/** The rollup's expression for each grouping ('' stands for null there). */
const ROLLUP_GROUP: Record<UsageGrouping, string> = {
  day: 'day',
  model: `nullif(model, '')`,
  key: `nullif(key_id, '')`,
  account: `nullif(account_id, '')`,
};

/** A usage row that is a request: a video task's settlement (succeeded) and refund rows are its bookkeeping. */
const REQUEST_ROW = `status <> 'refunded' and not (status = 'succeeded' and task_id is not null)`;

/** Each measure over raw rows. Requests: a video task's settlement and refund rows are its bookkeeping, not requests
 * of their own; video seconds: settlement rows carry both shapes, creation rows only the request, so they stay out. */
const RAW_MEASURE = {
  requests: `count(*) filter (where ${REQUEST_ROW})`,
  input_tokens: 'sum(input_tokens)',
  output_tokens: 'sum(output_tokens)',
  credits: 'coalesce(sum(case when credits > 0 then credits end), 0)',
  refunds: 'coalesce(-sum(case when credits < 0 then credits end), 0)',
  video_seconds_requested: 'coalesce(sum(case when video_delivered_seconds is not null then video_requested_seconds end), 0)',
  video_seconds_delivered: 'coalesce(sum(case when video_delivered_seconds is not null then video_delivered_seconds end), 0)',
  // a key's rows all carry its account: known even for a key the database does not hold (the config file's)
  key_account: `max(nullif(account_id, ''))`,
};

type Measure = keyof typeof RAW_MEASURE;
/** What a summary group totals; groups by key add their account (key_account). */
const SUMMARY_MEASURES = (Object.keys(RAW_MEASURE) as Measure[]).filter((m) => m !== 'key_account');

/** Each measure over rollup rows (the rollup job adds up RAW_MEASURE's rules per day, migration 020's ROLLUP_OF). */
const ROLLUP_MEASURE: Record<Measure, string> = {
  requests: 'sum(requests)',
  input_tokens: 'sum(input_tokens)',
  output_tokens: 'sum(output_tokens)',
  credits: 'sum(credits)',
  refunds: 'sum(refunds)',
  video_seconds_requested: 'sum(video_seconds_requested)',
  video_seconds_delivered: 'sum(video_seconds_delivered)',
  key_account: `max(nullif(account_id, ''))`,
};

/**
 * The usage_log expressions a raw span groups by. A span inside one UTC day (an edge day) is one day: written as that
 * date, since the planner cannot count the days of a computed date and would sort the rows instead of hashing them.
 */
function rawGroups(span: TimeSpan): Record<UsageGrouping, string> {
  const day = span.from && span.to && utcDay(span.from) === utcDay(new Date(span.to.getTime() - 1)) ? utcDay(span.from) : null;
  return day ? { ...GROUP_COLUMN, day: `date '${day}'` } : GROUP_COLUMN;
}

/** The usage_log expression each grouping groups by (days in UTC). */
const GROUP_COLUMN: Record<UsageGrouping, string> = {
  day: `(created_at at time zone 'UTC')::date`,
  model: 'model',
  key: 'key_id',
  account: 'account_id',
};
