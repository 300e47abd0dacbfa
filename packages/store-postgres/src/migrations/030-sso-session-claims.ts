import type { Knex } from 'knex';

/**
 * A session keeps the role claim's values it signed in with, so each use maps them again through the config file's
 * `sso.roles` (removing a mapping ends what the session may do), and an index by subject lets a platform admin end a
 * person's sessions. Sessions made before carry no claim to map: they end here (people sign in again); a row an older
 * instance still writes without one is never answered.
 */
export async function up(knex: Knex): Promise<void> {
  await knex('sso_sessions').delete();
  await knex.schema.alterTable('sso_sessions', (t) => {
    t.jsonb('claim_values');
    t.index(['subject']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sso_sessions', (t) => {
    t.dropIndex(['subject']);
    t.dropColumn('claim_values');
  });
}
