import type { Knex } from 'knex';

/** Config in the database (the file is the bootstrap) and per-account credit quotas. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('config_entries', (t) => {
    t.text('kind').notNullable(); // provider | model | group
    t.text('id').notNullable();
    t.jsonb('body'); // null = deleted through the admin API (a tombstone over a file entry)
    t.text('source').notNullable(); // file | admin
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.specificType('seq', 'bigserial'); // insertion order: the catalogue lists models as the file does
    t.primary(['kind', 'id']);
  });
  await knex.raw("alter table config_entries add constraint config_entries_kind_check check (kind in ('provider','model','group'))");
  await knex.schema.createTable('config_version', (t) => {
    t.integer('id').primary();
    t.bigInteger('version').notNullable();
  });
  await knex('config_version').insert({ id: 1, version: 0 });
  await knex.schema.createTable('account_quotas', (t) => {
    t.text('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.decimal('credit_limit', 20, 6); // null = unlimited
    t.decimal('credits_used', 20, 6).notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('credit_ledger', (t) => {
    t.bigIncrements('id').primary();
    t.text('account_id').notNullable();
    t.decimal('amount', 20, 6).notNullable(); // positive = charge, negative = refund
    t.text('reason').notNullable();
    t.text('request_id');
    t.text('task_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id', 'created_at']);
  });
  await knex.schema.alterTable('usage_log', (t) => {
    t.decimal('credits', 20, 6);
  });
  // A task's billing moves none → charged → refunded at most once, by compare-and-set.
  await knex.schema.alterTable('video_tasks', (t) => {
    t.text('billing_state').notNullable().defaultTo('none');
    t.decimal('billed_credits', 20, 6).notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => t.dropColumn('credits'));
  await knex.schema.alterTable('video_tasks', (t) => {
    t.dropColumn('billing_state');
    t.dropColumn('billed_credits');
  });
  for (const t of ['credit_ledger', 'account_quotas', 'config_version', 'config_entries']) await knex.schema.dropTableIfExists(t);
}
