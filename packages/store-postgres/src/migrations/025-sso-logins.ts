import type { Knex } from 'knex';

/**
 * Sign-ins under way: between the redirect to the identity provider and its answer, the PKCE verifier and the nonce
 * wait here under the state's SHA-256. Each is taken once (a replayed answer finds nothing) and expires in minutes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sso_logins', (t) => {
    t.text('state_hash').primary();
    t.text('code_verifier').notNullable();
    t.text('nonce').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sso_logins');
}
