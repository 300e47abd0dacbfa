import type { Knex } from 'knex';

/**
 * Keys get a role. Keys that exist before this migration become account admins (`admin`): they keep every power
 * they had. The column default stays `admin` for config-file and demo keys; the admin API and the CLI write
 * `member` unless told otherwise. A rotated key's previous secret lives on in `key_previous_secrets` until its
 * grace time ends.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('role').notNullable().defaultTo('admin');
  });
  await knex.raw("alter table api_keys add constraint api_keys_role_check check (role in ('admin','member'))");
  await knex.schema.createTable('key_previous_secrets', (t) => {
    t.text('key_hash').primary();
    t.text('key_id').notNullable().references('api_keys.id').onDelete('CASCADE').onUpdate('CASCADE');
    t.timestamp('grace_until', { useTz: true }).notNullable();
    t.index(['key_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('key_previous_secrets');
  await knex.raw('alter table api_keys drop constraint if exists api_keys_role_check');
  await knex.schema.alterTable('api_keys', (t) => t.dropColumn('role'));
}
