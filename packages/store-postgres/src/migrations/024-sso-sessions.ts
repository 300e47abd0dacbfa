import type { Knex } from 'knex';

/**
 * Dashboard sessions made by single sign-on (server/src/sso): the row is the session, the browser holds only a random
 * token in an HttpOnly cookie, and the row is found by the token's SHA-256 (a database leak opens no session). What
 * the session may do (platform admin, or an account and role) was decided at sign-in from the provider's claim.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sso_sessions', (t) => {
    t.text('token_hash').primary();
    t.text('subject').notNullable();
    t.boolean('platform_admin').notNullable();
    t.text('account_id');
    t.text('role');
    t.text('group_name');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sso_sessions');
}
