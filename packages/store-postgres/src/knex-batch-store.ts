import type { Knex } from 'knex';
import {
  batchEvent,
  type Batch,
  type BatchLineInput,
  type BatchListQuery,
  type BatchStore,
  type ClaimedLine,
  type LineOutcome,
} from '@gateway/core';
import { KnexBatchLeases } from './knex-batch-leases';
import { date, json } from './row-values';
import { enqueueDeliveries } from './webhook-outbox-sql';

const INSERT_CHUNK = 500;

/** The counts and usage of a batch, read from its lines and its usage rows (never kept twice). */
const COUNTS = `
  (select count(*) from batch_lines l where l.batch_id = b.id and l.ok) as n_completed,
  (select count(*) from batch_lines l where l.batch_id = b.id and l.ok = false) as n_failed,
  (select coalesce(json_build_array(sum(input_tokens), sum(cached_tokens), sum(output_tokens), sum(reasoning_tokens)), '[]')
     from usage_log u where u.batch_id = b.id) as usage_sums`;

function toBatch(r: Record<string, any>): Batch {
  const [input, cached, output, reasoning] = (json<Array<number | string | null>>(r.usage_sums) ?? []).map((v) => Number(v ?? 0));
  return {
    id: r.id,
    accountId: r.account_id,
    keyId: r.key_id,
    endpoint: r.endpoint,
    inputFileId: r.input_file_id,
    completionWindow: r.completion_window,
    status: r.status,
    metadata: json(r.metadata),
    errors: json(r.errors),
    outputFileId: r.output_file_id ?? null,
    errorFileId: r.error_file_id ?? null,
    createdAt: new Date(r.created_at),
    inProgressAt: date(r.in_progress_at),
    finalizingAt: date(r.finalizing_at),
    completedAt: date(r.completed_at),
    failedAt: date(r.failed_at),
    expiredAt: date(r.expired_at),
    cancellingAt: date(r.cancelling_at),
    cancelledAt: date(r.cancelled_at),
    expiresAt: new Date(r.expires_at),
    counts: { total: Number(r.total), completed: Number(r.n_completed ?? 0), failed: Number(r.n_failed ?? 0) },
    usage: { inputTokens: input ?? 0, cachedTokens: cached ?? 0, outputTokens: output ?? 0, reasoningTokens: reasoning ?? 0 },
  };
}

/** A batch's end, to the account's webhook endpoints subscribed to its event, in the transaction that ended it. */
async function announce(trx: Knex.Transaction, batchId: string, accountId: string, status: Batch['status'], at: Date): Promise<void> {
  const event = batchEvent(batchId, status, at);
  if (!event) return;
  await enqueueDeliveries(trx, {
    event_id: event.id,
    type: event.type,
    task_id: batchId,
    account_id: accountId,
    task: null,
    body: event.body,
    event_at: at,
    next_attempt_at: trx.fn.now(),
  });
}

/** When a batch ended, by its end state. */
const END_COLUMN: Partial<Record<Batch['status'], string>> = {
  completed: 'completed_at',
  expired: 'expired_at',
  cancelled: 'cancelled_at',
};

/** Batches and their lines (migration 037); the lines' leases are `KnexBatchLeases`. */
export class KnexBatchStore implements BatchStore {
  private readonly leases: KnexBatchLeases;

  constructor(private readonly db: Knex) {
    this.leases = new KnexBatchLeases(db);
  }

  async create(b: Batch, lines: readonly BatchLineInput[]): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('batches').insert({
        id: b.id,
        account_id: b.accountId,
        key_id: b.keyId,
        endpoint: b.endpoint,
        input_file_id: b.inputFileId,
        completion_window: b.completionWindow,
        status: b.status,
        metadata: b.metadata === null ? null : JSON.stringify(b.metadata),
        errors: b.errors === null ? null : JSON.stringify(b.errors),
        created_at: b.createdAt,
        expires_at: b.expiresAt,
        in_progress_at: b.inProgressAt,
        failed_at: b.failedAt,
        total: b.counts.total,
      });
      await announce(trx, b.id, b.accountId, b.status, b.createdAt);
      for (let i = 0; i < lines.length; i += INSERT_CHUNK)
        await trx('batch_lines').insert(
          lines.slice(i, i + INSERT_CHUNK).map((l) => ({
            batch_id: b.id,
            line: l.line,
            account_id: b.accountId,
            custom_id: l.customId,
            body: JSON.stringify(l.body),
          })),
        );
    });
  }

  async get(accountId: string, id: string): Promise<Batch | null> {
    const r = await this.db('batches as b').select('b.*', this.db.raw(COUNTS)).where({ 'b.id': id, 'b.account_id': accountId }).first();
    return r ? toBatch(r) : null;
  }

  async list(accountId: string, q: BatchListQuery): Promise<Batch[]> {
    // paging back (before): the ids closest above the cursor, so the page is the one immediately before it
    const rows = await this.db('batches as b')
      .select('b.*', this.db.raw(COUNTS))
      .where('b.account_id', accountId)
      .andWhere('b.id', 'like', `${q.prefix}%`)
      .modify((w) => {
        if (q.after) w.andWhere('b.id', '<', q.after);
        if (q.before) w.andWhere('b.id', '>', q.before);
      })
      .orderBy('b.id', q.before ? 'asc' : 'desc')
      .limit(q.limit);
    if (q.before) rows.reverse();
    return rows.map(toBatch);
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.db('batches').where({ id, account_id: accountId }).delete();
  }

  async requestCancel(accountId: string, id: string, at: Date): Promise<Batch | null> {
    await this.db('batches')
      .where({ id, account_id: accountId, status: 'in_progress' })
      .update({ status: 'cancelling', cancelling_at: at });
    return this.get(accountId, id);
  }

  claimLines(o: { owner: string; now: Date; leaseMs: number; limit: number; perAccount: number }): Promise<ClaimedLine[]> {
    return this.leases.claim(o);
  }

  extendLeases(owner: string, lines: ReadonlyArray<Pick<ClaimedLine, 'batchId' | 'line'>>, until: Date): Promise<void> {
    return this.leases.extend(owner, lines, until);
  }

  finishLine(owner: string, l: Pick<ClaimedLine, 'batchId' | 'line'>, outcome: LineOutcome): Promise<boolean> {
    return this.leases.finish(owner, l, outcome);
  }

  deferLine(owner: string, l: Pick<ClaimedLine, 'batchId' | 'line'>, notBefore: Date): Promise<void> {
    return this.leases.defer(owner, l, notBefore);
  }

  async claimFinished(o: { owner: string; now: Date; leaseMs: number; limit: number }): Promise<Batch[]> {
    const until = new Date(o.now.getTime() + o.leaseMs);
    const noneRunning = "not exists (select 1 from batch_lines l where l.batch_id = b.id and l.status = 'running')";
    const nonePending = "not exists (select 1 from batch_lines l where l.batch_id = b.id and l.status = 'pending')";
    const ready = this.db('batches as b')
      .select('b.id')
      .where(
        (w) =>
          void w
            .where((x) => void x.where('b.status', 'in_progress').whereRaw(nonePending).whereRaw(noneRunning))
            .orWhere((x) => void x.where('b.status', 'in_progress').where('b.expires_at', '<=', o.now).whereRaw(noneRunning))
            .orWhere((x) => void x.where('b.status', 'cancelling').whereRaw(noneRunning))
            .orWhere((x) => void x.where('b.status', 'finalizing').where('b.finalizer_until', '<', o.now)),
      )
      .limit(o.limit)
      .forUpdate()
      .skipLocked();
    const ids: Array<{ id: string }> = await this.db('batches')
      .whereIn('id', ready)
      .update({
        status: 'finalizing',
        finalizing_at: this.db.raw('coalesce(finalizing_at, ?)', [o.now]),
        finalizer: o.owner,
        finalizer_until: until,
      })
      .returning('id');
    if (!ids.length) return [];
    const rows = await this.db('batches as b')
      .select('b.*', this.db.raw(COUNTS))
      .whereIn(
        'b.id',
        ids.map((r) => r.id),
      );
    return rows.map(toBatch);
  }

  async *outcomes(batchId: string): AsyncIterable<{ customId: string; outcome: LineOutcome | null }> {
    let after = 0;
    for (;;) {
      const rows = await this.db('batch_lines')
        .select('line', 'custom_id', 'outcome')
        .where('batch_id', batchId)
        .andWhere('line', '>', after)
        .orderBy('line')
        .limit(INSERT_CHUNK);
      for (const r of rows) yield { customId: r.custom_id, outcome: json<LineOutcome>(r.outcome) };
      if (rows.length < INSERT_CHUNK) return;
      after = Number(rows[rows.length - 1].line);
    }
  }

  async finish(owner: string, id: string, end: Pick<Batch, 'status' | 'outputFileId' | 'errorFileId'>, at: Date): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const rows: Array<{ account_id: string }> = await trx('batches')
        .where({ id, status: 'finalizing', finalizer: owner })
        .update({
          status: end.status,
          output_file_id: end.outputFileId,
          error_file_id: end.errorFileId,
          [END_COLUMN[end.status] ?? 'completed_at']: at,
          finalizer: null,
          finalizer_until: null,
        })
        .returning('account_id');
      if (rows[0]) await announce(trx, id, rows[0].account_id, end.status, at);
      return rows.length > 0;
    });
  }
}
