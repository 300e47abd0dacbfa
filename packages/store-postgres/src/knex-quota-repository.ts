import type { Knex } from 'knex';
import {
  usedInPeriod,
  type AccountQuota,
  type BudgetPeriod,
  type CreditQuota,
  type CreditRefs,
  type KeyQuota,
  type Payer,
  type QuotaRepository,
  type TaskSettlementWrite,
  type UnsettledTask,
  type VideoTask,
} from '@gateway/core';
import { addCredits, reserveCredits } from './credit-quota-sql';
import { rowToTask } from './task-row.codec';
import { usageRowToColumns } from './usage-row.codec';
import { columnsOf } from './row-values';

const toQuota = (r: Record<string, any> | undefined, now: Date): CreditQuota => {
  const period = (r?.period ?? null) as BudgetPeriod | null;
  const used = Number(r?.credits_used ?? 0);
  return {
    limit: r?.credit_limit === null || r?.credit_limit === undefined ? null : Number(r.credit_limit),
    used: usedInPeriod({ used, period, periodStart: r?.period_start ? new Date(r.period_start) : null }, now),
    period,
  };
};

/** A reservation that did not fit: thrown to roll back what the transaction took so far. */
class DidNotFit extends Error {}

/** Who pays for a task row: its account and key. */
const payerOf = (r: Record<string, any>): Payer => ({ accountId: r.account_id, keyId: r.key_id ?? undefined });

export class KnexQuotaRepository implements QuotaRepository {
  private readonly now: () => Date;

  /** now: the clock budget periods are read by (tests inject one to cross a boundary) */
  constructor(
    private readonly db: Knex,
    opts: { now?: () => Date } = {},
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  async get(accountId: string): Promise<AccountQuota> {
    return { accountId, ...toQuota(await this.db('account_quotas').where({ account_id: accountId }).first(), this.now()) };
  }

  async getKey(keyId: string): Promise<KeyQuota> {
    return { keyId, ...toQuota(await this.db('key_quotas').where({ key_id: keyId }).first(), this.now()) };
  }

  async setLimit(accountId: string, limit: number | null, period?: BudgetPeriod | null): Promise<AccountQuota> {
    const change = period === undefined ? { credit_limit: limit } : { credit_limit: limit, period };
    await this.db('account_quotas')
      .insert({ account_id: accountId, ...change })
      .onConflict('account_id')
      .merge({ ...change, updated_at: this.db.fn.now() });
    return this.get(accountId);
  }

  /** A key without limit and period has no budget: its row goes, so its charges cost no write. */
  async setKeyLimit(keyId: string, limit: number | null, period: BudgetPeriod | null): Promise<KeyQuota> {
    if (limit === null && period === null) await this.db('key_quotas').where({ key_id: keyId }).delete();
    else
      await this.db('key_quotas')
        .insert({ key_id: keyId, credit_limit: limit, period })
        .onConflict('key_id')
        .merge({ credit_limit: limit, period, updated_at: this.db.fn.now() });
    return this.getKey(keyId);
  }

  async reserve(payer: Payer, amount: number, reason: string, refs: CreditRefs): Promise<boolean> {
    try {
      return await this.db.transaction(async (trx) => {
        if (!(await reserveCredits(trx, payer, amount, reason, refs, this.now()))) throw new DidNotFit();
        return true;
      });
    } catch (e) {
      if (e instanceof DidNotFit) return false;
      throw e;
    }
  }

  async charge(payer: Payer, amount: number, reason: string, refs: CreditRefs): Promise<void> {
    await this.db.transaction((trx) => addCredits(trx, payer, amount, reason, refs, this.now()));
  }

  async chargeTask(taskId: string, accountId: string, amount: number): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const [task] = await trx('video_tasks')
        .where({ id: taskId, billing_state: 'none' })
        .update({ billing_state: 'charged', billed_credits: amount })
        .returning('key_id');
      if (!task) return false;
      await addCredits(trx, { accountId, keyId: task?.key_id ?? undefined }, amount, 'video task', { taskId }, this.now());
      return true;
    });
  }

  async unbilledTasks(models: string[], limit: number): Promise<VideoTask[]> {
    if (!models.length) return [];
    const rows = await this.db('video_tasks').where({ billing_state: 'none' }).whereIn('model', models).orderBy('id').limit(limit);
    return rows.map(rowToTask);
  }

  async tasksWithoutUsageRow(limit: number): Promise<Array<{ task: VideoTask; credits: number }>> {
    const rows = await this.db('video_tasks as t')
      .whereNotExists(this.db('usage_log as u').whereRaw('u.task_id = t.id').whereIn('u.status', ['queued']))
      .orderBy('t.id')
      .limit(limit)
      .select('t.*');
    return rows.map((r: Record<string, unknown>) => ({ task: rowToTask(r), credits: Number(r.billed_credits) }));
  }

  async refundTask(taskId: string) {
    return (await this.refund({ sql: 'and id = ?', params: [taskId], limit: 1 }))[0] ?? null;
  }

  async refundUnsuccessfulTasks(limit: number) {
    return this.refund({ sql: '', params: [], limit });
  }

  async unsettledTasks(limit: number, taskId?: string): Promise<UnsettledTask[]> {
    const q = this.db('video_tasks').where({ status: 'succeeded' }).whereIn('billing_state', ['none', 'charged']);
    if (taskId !== undefined) q.where({ id: taskId });
    const rows = await q.orderBy([{ column: 'completed_at' }, { column: 'id' }]).limit(limit);
    return rows.map((r: Record<string, unknown>) => ({ task: rowToTask(r), reserved: Number(r.billed_credits) }));
  }

  /**
   * none|charged → settled by compare-and-set (also on the reserved amount, so a settlement weighed against a
   * stale read writes nothing), the unused credits given back and the usage row written, in one transaction.
   */
  async settleTask(taskId: string, s: TaskSettlementWrite): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const [row] = await trx('video_tasks')
        .where({ id: taskId, status: 'succeeded', billed_credits: s.reserved })
        .whereIn('billing_state', ['none', 'charged'])
        .update({ billing_state: 'settled', billed_credits: s.charge })
        .returning(['account_id', 'key_id']);
      if (!row) return false;
      const refund = s.reserved - s.charge;
      if (refund > 0) await addCredits(trx, payerOf(row), -refund, 'video task delivery refund', { taskId }, this.now());
      await trx('usage_log').insert(usageRowToColumns({ createdAt: new Date(), ...s.usage }));
      return true;
    });
  }

  /** charged → refunded by compare-and-set, with the ledger row, for the owed tasks matched (skipping locked ones). */
  private async refund(only: { sql: string; params: string[]; limit: number }) {
    return this.db.transaction(async (trx) => {
      const { rows } = await trx.raw(
        `update video_tasks set billing_state = 'refunded'
         where id in (select id from video_tasks where billing_state = 'charged' and status in ('failed','cancelled','expired') ${only.sql}
                      order by id limit ? for update skip locked)
           and billing_state = 'charged'
         returning id, account_id, key_id, model, format, status, billed_credits`,
        [...only.params, only.limit],
      );
      const out: Array<{ taskId: string; accountId: string; amount: number }> = [];
      for (const r of rows as Array<Record<string, any>>) {
        const amount = Number(r.billed_credits);
        await addCredits(trx, payerOf(r), -amount, 'video task refund', { taskId: r.id }, this.now());
        // The refund shows where the charge shows: a usage row of its own, with negative credits, in the same step.
        await trx('usage_log').insert(
          usageRowToColumns({
            createdAt: new Date(),
            ...columnsOf(r, ['accountId', 'keyId', 'model', 'format']),
            requestId: `refund_${r.id}`,
            status: 'refunded',
            httpStatus: 200,
            errorCode: r.status,
            taskId: r.id,
            credits: -amount,
          }),
        );
        out.push({ taskId: r.id, accountId: r.account_id, amount });
      }
      return out;
    });
  }
}
