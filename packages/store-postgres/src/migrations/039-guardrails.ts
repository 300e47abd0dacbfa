import type { Knex } from 'knex';

/**
 * Guardrails (docs/guardrails.md): a usage row's hits (`[{guardrail, mode, phase, action}]`, never the matched text)
 * and a key's own guardrail ids, run after its group's (null = none of its own).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => {
    t.jsonb('guardrails');
  });
  await knex.schema.alterTable('api_keys', (t) => {
    t.jsonb('guardrails');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => t.dropColumn('guardrails'));
  await knex.schema.alterTable('usage_log', (t) => t.dropColumn('guardrails'));
}
