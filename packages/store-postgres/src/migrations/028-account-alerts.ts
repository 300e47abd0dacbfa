import type { Knex } from 'knex';

/**
 * Budget and expiry alerts (core/webhooks/account-alerts.ts): each alert sent is recorded once per key, type,
 * threshold and period (the primary key is what keeps several instances from sending one twice), and its deliveries
 * ride the webhook outbox with their body and no task (`task` null; `task_id` holds the key id, which orders them).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_alerts_sent', (t) => {
    t.text('key_id').notNullable();
    t.text('type').notNullable();
    t.integer('threshold').notNullable();
    t.text('period').notNullable();
    t.text('account_id').notNullable();
    t.text('event_id').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable();
    t.primary(['key_id', 'type', 'threshold', 'period']);
  });
  await knex.raw('alter table webhook_deliveries alter column task drop not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('delete from webhook_deliveries where task is null');
  await knex.raw('alter table webhook_deliveries alter column task set not null');
  await knex.schema.dropTableIfExists('webhook_alerts_sent');
}
