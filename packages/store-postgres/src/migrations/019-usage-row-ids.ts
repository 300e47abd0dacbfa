import type { Knex } from 'knex';

/**
 * Spend is never lost, never doubled: every usage row gets a stable id (`row_id`, unique), so a row replayed from the
 * spool after an outage or a crash is inserted at most once (`on conflict do nothing`); a charge that goes with a
 * usage row names it in the ledger (`usage_row_id`, unique), so the charge is applied at most once as well, whether
 * it was settled on the request path, deferred to the row's write, or settled by crash recovery. Rows written before
 * this migration keep a null id (nulls never conflict).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => t.text('row_id'));
  await knex.raw('create unique index usage_log_row_id on usage_log (row_id)');
  await knex.schema.alterTable('credit_ledger', (t) => t.text('usage_row_id'));
  await knex.raw('create unique index credit_ledger_usage_row_id on credit_ledger (usage_row_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists credit_ledger_usage_row_id');
  await knex.schema.alterTable('credit_ledger', (t) => t.dropColumn('usage_row_id'));
  await knex.raw('drop index if exists usage_log_row_id');
  await knex.schema.alterTable('usage_log', (t) => t.dropColumn('row_id'));
}
