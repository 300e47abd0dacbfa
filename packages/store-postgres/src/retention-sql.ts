import type { Knex } from 'knex';
import { rollUpUsage } from './usage-rollup';

/** What the retention job deletes, and after how many days (0: kept forever). */
export interface RetentionPolicy {
  usageDays: number;
  webhookDeliveryDays: number;
}

/** Rows deleted per statement: short transactions, so writers are never held up behind a long delete. */
const BATCH = 5000;

async function deleteInBatches(db: Knex, table: string, where: string, cutoff: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const result = (await db.raw(`delete from ${table} where id in (select id from ${table} where ${where} limit ${BATCH})`, {
      cutoff,
    })) as { rowCount?: number; affectedRows?: number };
    // node-postgres says rowCount, PGlite affectedRows
    const rowCount = result.rowCount ?? result.affectedRows ?? 0;
    total += rowCount;
    if (!rowCount || rowCount < BATCH) return total;
  }
}

/**
 * Enforces the retention policy once: raw usage rows older than `usageDays` (the credit ledger, which holds the
 * charges, is kept), and finished webhook deliveries (delivered or failed; their attempts go with them) older than
 * `webhookDeliveryDays`. Pending deliveries are never deleted. Idempotent: every instance may run it.
 */
export async function enforceRetention(
  db: Knex,
  policy: RetentionPolicy,
  now: Date,
): Promise<{ usageRows: number; webhookDeliveries: number }> {
  const before = (days: number) => new Date(now.getTime() - days * 86_400_000);
  // only rows the daily rollup holds: the rollup is the books, and a row above its watermark is not in it yet
  if (policy.usageDays > 0) await rollUpUsage(db);
  const usageRows =
    policy.usageDays > 0
      ? await deleteInBatches(
          db,
          'usage_log',
          'created_at < :cutoff and id <= (select last_id from usage_rollup_state)',
          before(policy.usageDays),
        )
      : 0;
  const webhookDeliveries =
    policy.webhookDeliveryDays > 0
      ? await deleteInBatches(db, 'webhook_deliveries', "state <> 'pending' and event_at < :cutoff", before(policy.webhookDeliveryDays))
      : 0;
  return { usageRows, webhookDeliveries };
}
