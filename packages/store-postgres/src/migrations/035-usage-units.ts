import type { Knex } from 'knex';

/**
 * The units of the metered kinds (speech characters, audio seconds, rerank search units), and whether a row's token
 * counts are the gateway's own estimate because the upstream reported none (embeddings of some upstreams).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => {
    t.bigInteger('characters');
    t.double('audio_seconds');
    t.integer('search_units');
    t.boolean('estimated');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => {
    t.dropColumns('characters', 'audio_seconds', 'search_units', 'estimated');
  });
}
