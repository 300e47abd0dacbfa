import type { Knex } from 'knex';

/**
 * A key may be narrowed to the tasks it created itself (`tasks_scope = 'own'`); every key that exists keeps seeing
 * its account's tasks (`account`), as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('tasks_scope').notNullable().defaultTo('account');
  });
  await knex.raw("alter table api_keys add constraint api_keys_tasks_scope_check check (tasks_scope in ('account','own'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table api_keys drop constraint if exists api_keys_tasks_scope_check');
  await knex.schema.alterTable('api_keys', (t) => t.dropColumn('tasks_scope'));
}
