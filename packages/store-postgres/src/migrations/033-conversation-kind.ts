import type { Knex } from 'knex';

/**
 * Stored turns say what they continue: `response` (Responses' previous_response_id) or `thread` (Anthropic's message
 * threads), so each is read only as its own kind. Thread turns written before the column carry
 * `document.object = 'message_thread_turn'`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('responses', (t) => {
    t.text('kind').notNullable().defaultTo('response');
  });
  await knex('responses').whereRaw(`document->>'object' = 'message_thread_turn'`).update({ kind: 'thread' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('responses', (t) => {
    t.dropColumn('kind');
  });
}
