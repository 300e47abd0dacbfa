import type { Knex } from 'knex';

/**
 * Whether a key row (of `api_keys`) was narrowed by the platform admin: a model allowlist, a limit of its own, a
 * budget or an expiry. A key from before roles that was narrowed must not become an account admin, who manages the
 * account's keys and webhooks (migration 029 applies the same rule to databases that ran 017 before it held).
 */
export const NARROWED_KEY_SQL = `(api_keys.models is not null or api_keys.expires_at is not null
  or api_keys.requests_per_minute is not null or api_keys.tokens_per_minute is not null
  or api_keys.concurrent_streams is not null
  or exists (select 1 from key_quotas q where q.key_id = api_keys.id and q.credit_limit is not null))`;

/**
 * Keys get a role. A key that exists before this migration becomes an account admin (`admin`) only if it was
 * account-wide; a narrowed one becomes a `member`, so the upgrade widens no key. The column default stays `admin` for
 * config-file and demo keys; the admin API and the CLI write `member` unless told otherwise. A rotated key's previous
 * secret lives on in `key_previous_secrets`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('role').notNullable().defaultTo('admin');
  });
  await knex.raw("alter table api_keys add constraint api_keys_role_check check (role in ('admin','member'))");
  await knex('api_keys').whereRaw(NARROWED_KEY_SQL).update({ role: 'member' });
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
