import type { Knex } from 'knex';

/** The retention purge deletes stored responses by age, across accounts. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('responses', (t) => {
    t.index(['created_at'], 'responses_created_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('responses', (t) => {
    t.dropIndex(['created_at'], 'responses_created_at');
  });
}
