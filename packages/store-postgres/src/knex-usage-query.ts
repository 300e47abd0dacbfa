import type { Knex } from 'knex';
import type { DailyUsageTotal, UsageFilter, UsageQuery, UsageRecord } from '@gateway/core';

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
  };
}

export class KnexUsageQuery implements UsageQuery {
  constructor(private readonly db: Knex) {}

  private filtered(f: Omit<UsageFilter, 'limit' | 'after'>): Knex.QueryBuilder {
    const q = this.db('usage_log').where({ account_id: f.accountId });
    if (f.from) q.where('created_at', '>=', f.from);
    if (f.to) q.where('created_at', '<', f.to);
    const eq: Array<[Exclude<keyof UsageFilter, 'limit' | 'after' | 'from' | 'to'>, string]> = [
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

  async list(f: UsageFilter): Promise<{ rows: UsageRecord[]; hasMore: boolean }> {
    const q = this.filtered(f)
      .orderBy('id', 'desc')
      .limit(f.limit + 1);
    if (f.after !== undefined) q.where('id', '<', f.after);
    const rows = await q;
    return { rows: rows.slice(0, f.limit).map(toRecord), hasMore: rows.length > f.limit };
  }

  async dailyTotals(f: Omit<UsageFilter, 'limit' | 'after'>): Promise<DailyUsageTotal[]> {
    const rows = await this.filtered(f)
      .select(this.db.raw(`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day`), 'model')
      .count({ requests: '*' })
      .sum({ input_tokens: 'input_tokens', output_tokens: 'output_tokens' })
      .groupByRaw(`1, model`)
      .orderByRaw('1 desc, model asc');
    return rows.map((r: Record<string, any>) => ({
      day: r.day,
      model: r.model ?? null,
      requests: Number(r.requests),
      inputTokens: Number(r.input_tokens ?? 0),
      outputTokens: Number(r.output_tokens ?? 0),
    }));
  }
}
