import type { Knex } from 'knex';

/** The provider's own request id on each usage row, to quote when asking the provider about a call. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => {
    t.text('upstream_request_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => {
    t.dropColumn('upstream_request_id');
  });
}
