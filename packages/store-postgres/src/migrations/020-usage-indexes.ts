import type { Knex } from 'knex';

/**
 * The books stay fast as they grow: an index for each usage filter that had none (key, model, request id; the account,
 * the time and the task had theirs), and one for the retention job's sweep of finished webhook deliveries. `if not
 * exists`: on a large table an operator may build them beforehand with `create index concurrently` under these names
 * (docs/operations.md, "Retention"), and the migration then takes no lock.
 */
const INDEXES: Array<[string, string]> = [
  ['usage_log_key_created', 'usage_log (key_id, created_at)'],
  ['usage_log_model_created', 'usage_log (model, created_at)'],
  ['usage_log_request_id', 'usage_log (request_id)'],
  ['webhook_deliveries_finished', "webhook_deliveries (event_at) where state <> 'pending'"],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, on] of INDEXES) await knex.raw(`create index if not exists ${name} on ${on}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw(`drop index if exists ${name}`);
}
