import type { Knex } from 'knex';

/**
 * The response cache's entries (knex-response-cache.ts), and whether a usage row's answer came from it. Keys are
 * digests that already hold the tenant; account, key and model are kept beside them for purges, and bytes and
 * created_at for the size cap's oldest-first eviction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('response_cache', (t) => {
    t.string('key', 64).primary();
    t.text('value').notNullable();
    t.text('account_id').notNullable();
    t.text('key_id');
    t.text('model').notNullable();
    t.integer('bytes').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['model'], 'response_cache_model_idx');
    t.index(['account_id'], 'response_cache_account_idx');
    t.index(['created_at'], 'response_cache_created_idx');
    t.index(['expires_at'], 'response_cache_expires_idx');
  });
  await knex.schema.alterTable('usage_log', (t) => {
    t.boolean('cache_hit');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => {
    t.dropColumn('cache_hit');
  });
  await knex.schema.dropTable('response_cache');
}
