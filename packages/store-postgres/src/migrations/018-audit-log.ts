import type { Knex } from 'knex';

/**
 * The append-only audit log: one row per change to keys, accounts, quotas, budgets and the catalogue, written in
 * the change's own transaction. A trigger refuses UPDATE and DELETE, so not even a bug in the gateway edits history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('seq').primary();
    t.text('id').notNullable().unique();
    t.timestamp('at', { useTz: true }).notNullable();
    t.text('actor_type').notNullable();
    t.text('actor_id').notNullable();
    t.text('action').notNullable();
    t.text('target_type').notNullable();
    t.text('target_id').notNullable();
    t.text('account_id');
    t.jsonb('before');
    t.jsonb('after');
    t.text('request_id');
    t.text('address');
    t.index(['at']);
    t.index(['account_id', 'at']);
  });
  await knex.raw(`create function audit_log_append_only() returns trigger language plpgsql as $$
    begin raise exception 'audit_log is append-only'; end $$`);
  await knex.raw(
    'create trigger audit_log_append_only before update or delete on audit_log for each row execute function audit_log_append_only()',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('audit_log');
  await knex.raw('drop function if exists audit_log_append_only()');
}
