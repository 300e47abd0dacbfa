import type { Knex } from 'knex';

/** Stored responses (responses format): the rendered object plus the canonical history a follow-up continues. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('responses', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable();
    t.text('model').notNullable();
    t.text('previous_response_id');
    t.jsonb('document').notNullable();
    t.jsonb('conversation').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('responses');
}
