import type { Knex } from 'knex';

/**
 * Keys get a name, an expiry, a model allowlist and limits of their own; credit quotas (the account's, and a key's
 * in `key_quotas`) get a period after which their used credits start again from zero.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('name');
    t.timestamp('expires_at', { useTz: true });
    t.jsonb('models'); // null = the whole group
    t.integer('requests_per_minute');
    t.integer('tokens_per_minute');
    t.integer('concurrent_streams');
  });
  await knex.schema.alterTable('account_quotas', (t) => {
    t.text('period'); // null = never resets
    t.timestamp('period_start', { useTz: true }); // the period credits_used counts from
  });
  await knex.raw("alter table account_quotas add constraint account_quotas_period_check check (period in ('daily','monthly'))");
  await knex.schema.createTable('key_quotas', (t) => {
    t.text('key_id').primary().references('api_keys.id').onDelete('CASCADE').onUpdate('CASCADE');
    t.decimal('credit_limit', 20, 6); // null = unlimited
    t.decimal('credits_used', 20, 6).notNullable().defaultTo(0);
    t.text('period');
    t.timestamp('period_start', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("alter table key_quotas add constraint key_quotas_period_check check (period in ('daily','monthly'))");
  // GET /admin/usage reads every account by time
  await knex.schema.alterTable('usage_log', (t) => t.index(['created_at']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => t.dropIndex(['created_at']));
  await knex.schema.dropTableIfExists('key_quotas');
  await knex.raw('alter table account_quotas drop constraint if exists account_quotas_period_check');
  await knex.schema.alterTable('account_quotas', (t) => {
    t.dropColumn('period');
    t.dropColumn('period_start');
  });
  await knex.schema.alterTable('api_keys', (t) => {
    for (const c of ['name', 'expires_at', 'models', 'requests_per_minute', 'tokens_per_minute', 'concurrent_streams']) t.dropColumn(c);
  });
}
