import type { Knex } from 'knex';

/**
 * Fair webhook delivery: a claim counts each account's deliveries in flight (leased) to cap them, and ranks the due
 * ones per account. Partial indexes keep both reads to the rows that matter.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index webhook_deliveries_leased on webhook_deliveries (account_id, lease_until) where lease_until is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists webhook_deliveries_leased');
}
