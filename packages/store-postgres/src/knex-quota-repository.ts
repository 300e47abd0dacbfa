import type { Knex } from 'knex';
import type { AccountQuota, CreditRefs, QuotaRepository, VideoTask } from '@gateway/core';
import { rowToTask } from './task-row.codec';
import { usageRowToRecord } from './knex-usage-log';

const toQuota = (accountId: string, r?: Record<string, any>): AccountQuota => ({
  accountId,
  limit: r?.credit_limit === null || r?.credit_limit === undefined ? null : Number(r.credit_limit),
  used: Number(r?.credits_used ?? 0),
});

/**
 * Takes `amount` credits only if the account stays within its limit: one conditional UPDATE, so the row lock
 * serialises concurrent takers on every instance and each re-checks the limit against the committed total.
 * Used inside a caller's transaction (task admission) or on its own.
 */
export async function reserveCredits(
  trx: Knex.Transaction,
  accountId: string,
  amount: number,
  reason: string,
  refs: CreditRefs,
): Promise<boolean> {
  await trx.raw('insert into account_quotas (account_id, credits_used) values (?, 0) on conflict (account_id) do nothing', [accountId]);
  const { rows } = await trx.raw(
    `update account_quotas set credits_used = credits_used + ?, updated_at = now()
      where account_id = ? and (credit_limit is null or credits_used + ? <= credit_limit)
      returning account_id`,
    [amount, accountId, amount],
  );
  if (!(rows as unknown[]).length) return false;
  await ledger(trx, accountId, amount, reason, refs);
  return true;
}

async function ledger(trx: Knex.Transaction, accountId: string, amount: number, reason: string, refs: CreditRefs): Promise<void> {
  await trx('credit_ledger').insert({
    account_id: accountId,
    amount,
    reason,
    request_id: refs.requestId ?? null,
    task_id: refs.taskId ?? null,
  });
}

const limit1 = (taskId: string) => ({ sql: 'and id = ?', params: [taskId], limit: 1 });

export class KnexQuotaRepository implements QuotaRepository {
  constructor(private readonly db: Knex) {}

  async get(accountId: string): Promise<AccountQuota> {
    return toQuota(accountId, await this.db('account_quotas').where({ account_id: accountId }).first());
  }

  async setLimit(accountId: string, limit: number | null): Promise<AccountQuota> {
    const [row] = await this.db('account_quotas')
      .insert({ account_id: accountId, credit_limit: limit })
      .onConflict('account_id')
      .merge({ credit_limit: limit, updated_at: this.db.fn.now() })
      .returning('*');
    return toQuota(accountId, row);
  }

  private async add(trx: Knex.Transaction, accountId: string, amount: number, reason: string, refs: CreditRefs): Promise<void> {
    await trx.raw(
      `insert into account_quotas (account_id, credits_used) values (?, ?)
       on conflict (account_id) do update set credits_used = account_quotas.credits_used + excluded.credits_used, updated_at = now()`,
      [accountId, amount],
    );
    await ledger(trx, accountId, amount, reason, refs);
  }

  async reserve(accountId: string, amount: number, reason: string, refs: CreditRefs): Promise<boolean> {
    return this.db.transaction((trx) => reserveCredits(trx, accountId, amount, reason, refs));
  }

  async charge(accountId: string, amount: number, reason: string, refs: CreditRefs): Promise<void> {
    await this.db.transaction((trx) => this.add(trx, accountId, amount, reason, refs));
  }

  async chargeTask(taskId: string, accountId: string, amount: number): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const n = await trx('video_tasks')
        .where({ id: taskId, billing_state: 'none' })
        .update({ billing_state: 'charged', billed_credits: amount });
      if (n === 0) return false;
      await this.add(trx, accountId, amount, 'video task', { taskId });
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
    return (await this.refund(limit1(taskId)))[0] ?? null;
  }

  async refundUnsuccessfulTasks(limit: number) {
    return this.refund({ sql: '', params: [], limit });
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
        await this.add(trx, r.account_id, -amount, 'video task refund', { taskId: r.id });
        // The refund shows where the charge shows: a usage row of its own, with negative credits, in the same step.
        await trx('usage_log').insert(
          usageRowToRecord({
            createdAt: new Date(),
            requestId: `refund_${r.id}`,
            accountId: r.account_id,
            keyId: r.key_id,
            model: r.model,
            format: r.format,
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
