import type { Knex } from 'knex';

/**
 * Batches (core/batch.ts) and their lines, driven by the batch runner: a line is leased (`lease_owner`,
 * `lease_until`) while its request runs and answered once (`outcome`); the counts a batch shows are read from its
 * lines. Usage rows of batch lines name their batch (`usage_log.batch_id`), which /v1/usage filters by.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('batches', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable();
    t.text('key_id').notNullable();
    t.text('endpoint').notNullable();
    t.text('input_file_id').notNullable();
    t.text('completion_window').notNullable();
    t.text('status').notNullable();
    t.jsonb('metadata');
    t.jsonb('errors');
    t.text('output_file_id');
    t.text('error_file_id');
    for (const c of ['created_at', 'expires_at']) t.timestamp(c, { useTz: true }).notNullable();
    for (const c of ['in_progress_at', 'finalizing_at', 'completed_at', 'failed_at', 'expired_at', 'cancelling_at', 'cancelled_at'])
      t.timestamp(c, { useTz: true });
    t.integer('total').notNullable().defaultTo(0);
    t.text('finalizer');
    t.timestamp('finalizer_until', { useTz: true });
    t.index(['account_id', 'id']);
  });
  await knex.raw("create index batches_active on batches (status) where status in ('in_progress', 'cancelling', 'finalizing')");
  await knex.schema.createTable('batch_lines', (t) => {
    t.text('batch_id').notNullable().references('batches.id').onDelete('CASCADE');
    t.integer('line').notNullable();
    t.text('account_id').notNullable();
    t.text('custom_id').notNullable();
    t.jsonb('body').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.smallint('attempts').notNullable().defaultTo(0);
    t.text('lease_owner');
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('not_before', { useTz: true });
    t.jsonb('outcome');
    t.boolean('ok');
    t.primary(['batch_id', 'line']);
  });
  await knex.raw("create index batch_lines_pending on batch_lines (account_id, batch_id, line) where status = 'pending'");
  await knex.raw("create index batch_lines_running on batch_lines (account_id, lease_until) where status = 'running'");
  await knex.schema.alterTable('usage_log', (t) => t.text('batch_id'));
  await knex.raw('create index usage_log_batch_id on usage_log (batch_id) where batch_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists usage_log_batch_id');
  await knex.schema.alterTable('usage_log', (t) => t.dropColumn('batch_id'));
  await knex.schema.dropTableIfExists('batch_lines');
  await knex.schema.dropTableIfExists('batches');
}
