import type { Knex } from 'knex';

/** Input tokens written to the provider's prompt cache (Anthropic cache_creation_input_tokens), billed apart from reads. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => {
    t.integer('cache_write_tokens');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => {
    t.dropColumn('cache_write_tokens');
  });
}
