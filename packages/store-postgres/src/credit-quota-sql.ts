import type { Knex } from 'knex';
import { periodStart, type CreditRefs, type Payer } from '@gateway/core';

/** The two tables that hold a credit quota, keyed by account or by key. */
const TABLES = { account: ['account_quotas', 'account_id'], key: ['key_quotas', 'key_id'] } as const;
type Scope = keyof typeof TABLES;

/**
 * SQL for a quota row's period: the start of its current period (null for a lifetime quota), and what it has used
 * in it. The period starts come from core's periodStart with the repository's clock, so the boundary rule is one.
 */
const CURRENT_START = `(case period when 'daily' then cast(:daily as timestamptz) when 'monthly' then cast(:monthly as timestamptz) end)`;
const USED_NOW = `(case when period is not null and (period_start is null or period_start < ${CURRENT_START}) then 0 else credits_used end)`;

export const periodBindings = (now: Date) => ({ daily: periodStart('daily', now), monthly: periodStart('monthly', now) });

/**
 * Adds `amount` to one quota row, starting the row's period over first when a boundary passed. With `withinLimit`,
 * only if the row stays within its limit: one conditional UPDATE, so the row lock serialises concurrent takers on
 * every instance and each re-checks against the committed total. False when it did not fit (or, for a key, when
 * the key has no budget row: nothing to count).
 */
async function addToRow(
  trx: Knex.Transaction,
  scope: Scope,
  id: string,
  amount: number,
  now: Date,
  withinLimit: boolean,
): Promise<boolean> {
  const [table, column] = TABLES[scope];
  const fits = withinLimit ? `and (credit_limit is null or ${USED_NOW} + :amount <= credit_limit)` : '';
  const { rows } = await trx.raw(
    `update ${table} set credits_used = greatest(${USED_NOW} + :amount, 0), period_start = ${CURRENT_START}, updated_at = now()
      where ${column} = :id ${fits} returning ${column}`,
    { ...periodBindings(now), amount, id },
  );
  return (rows as unknown[]).length > 0;
}

/** Writes the ledger line; false when a charge naming the same usage row was already written (nothing to do twice). */
async function ledger(trx: Knex.Transaction, accountId: string, amount: number, reason: string, refs: CreditRefs): Promise<boolean> {
  const line = {
    account_id: accountId,
    amount,
    reason,
    request_id: refs.requestId ?? null,
    task_id: refs.taskId ?? null,
    usage_row_id: refs.usageRowId ?? null,
  };
  if (!refs.usageRowId) {
    await trx('credit_ledger').insert(line);
    return true;
  }
  const written = await trx('credit_ledger').insert(line).onConflict('usage_row_id').ignore().returning('id');
  return written.length > 0;
}

async function ensureAccountRow(trx: Knex.Transaction, accountId: string): Promise<void> {
  await trx.raw('insert into account_quotas (account_id, credits_used) values (?, 0) on conflict (account_id) do nothing', [accountId]);
}

async function keyHasBudget(trx: Knex.Transaction, keyId: string | undefined): Promise<boolean> {
  return !!keyId && !!(await trx('key_quotas').where({ key_id: keyId }).first('key_id'));
}

/**
 * Takes `amount` credits only if the account and the key's budget (when it has one) both stay within their limits,
 * inside the caller's transaction (task admission) or one of its own. False when either would not: the caller
 * rolls back, so a taken account share never stays without the key's.
 */
export async function reserveCredits(
  trx: Knex.Transaction,
  payer: Payer,
  amount: number,
  reason: string,
  refs: CreditRefs,
  now: Date,
): Promise<boolean> {
  await ensureAccountRow(trx, payer.accountId);
  if (!(await addToRow(trx, 'account', payer.accountId, amount, now, true))) return false;
  if ((await keyHasBudget(trx, payer.keyId)) && !(await addToRow(trx, 'key', payer.keyId!, amount, now, true))) return false;
  await ledger(trx, payer.accountId, amount, reason, refs);
  return true;
}

/**
 * Adds `amount` (negative: a refund) to the account and the key's budget unconditionally (post-paid work). A charge
 * naming a usage row (refs.usageRowId) is applied once: its ledger line goes first, and a second one changes nothing.
 */
export async function addCredits(trx: Knex.Transaction, payer: Payer, amount: number, reason: string, refs: CreditRefs, now: Date) {
  if (!(await ledger(trx, payer.accountId, amount, reason, refs))) return;
  await ensureAccountRow(trx, payer.accountId);
  await addToRow(trx, 'account', payer.accountId, amount, now, false);
  if (payer.keyId) await addToRow(trx, 'key', payer.keyId, amount, now, false);
}
