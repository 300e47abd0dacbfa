import type { Knex } from 'knex';

/**
 * Stored rows in the form the code reads, once, so no reader keeps a second form:
 * - provider entries stored through the admin API lose `transport`: every call goes through node's http sender
 *   (docs/adr/0002-node-http-transport.md), and the config schema refuses the field.
 */
export async function up(knex: Knex): Promise<void> {
  await knex('config_entries')
    .where({ kind: 'provider' })
    .whereRaw("body->>'transport' is not null")
    .update({ body: knex.raw("body - 'transport'") });
}

/** Nothing: the removed field chose a sender that no longer exists. */
export async function down(): Promise<void> {}
