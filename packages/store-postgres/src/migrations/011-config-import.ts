import type { Knex } from 'knex';

/**
 * The catalogue's provenance: the hash of the config file last imported (a start-up imports the file only when its
 * hash differs) and the file's settings (limits, circuit breaker), so every instance reads them from the database.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('config_version', (t) => {
    t.text('file_hash'); // null: no file imported since this migration
    t.timestamp('file_imported_at', { useTz: true });
    t.jsonb('settings'); // { limits, circuitBreaker } as the file wrote them
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('config_version', (t) => {
    t.dropColumn('file_hash');
    t.dropColumn('file_imported_at');
    t.dropColumn('settings');
  });
}
