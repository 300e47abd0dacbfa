import type { Knex } from 'knex';

/**
 * Webhooks (issue 18): endpoints per account (their signing secret sealed like admin-written provider keys), each
 * account's callback_url secret, the outbox (one row per event and target, written in the transaction of the task's
 * status change) and the attempts. `seq` orders one task's deliveries to one target. The trigger announces every
 * change of a task's status or progress (NOTIFY, sent at commit) to the live-status streams of every instance.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('video_tasks', (t) => t.text('callback_url'));
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable();
    t.text('url').notNullable();
    t.jsonb('events').notNullable();
    t.text('secret').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('failing_since', { useTz: true });
    t.timestamp('disabled_at', { useTz: true });
    t.text('disabled_reason');
    t.index(['account_id'], 'webhook_endpoints_account');
  });
  await knex.schema.createTable('webhook_account_secrets', (t) => {
    t.text('account_id').primary();
    t.text('secret').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.text('id').primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.text('event_id').notNullable();
    t.text('type').notNullable();
    t.text('task_id').notNullable();
    t.text('account_id').notNullable();
    t.text('endpoint_id').references('id').inTable('webhook_endpoints').onDelete('CASCADE');
    t.text('callback_url');
    t.jsonb('task').notNullable();
    t.timestamp('event_at', { useTz: true }).notNullable();
    t.text('state').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable();
    t.timestamp('first_attempt_at', { useTz: true });
    t.text('body');
    t.text('lease_owner');
    t.timestamp('lease_until', { useTz: true });
    t.index(['endpoint_id', 'seq'], 'webhook_deliveries_endpoint');
    t.index(['task_id', 'seq'], 'webhook_deliveries_task');
  });
  await knex.raw(
    "alter table webhook_deliveries add constraint webhook_deliveries_state_check check (state in ('pending','delivered','failed'))",
  );
  await knex.raw("create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'");
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.text('delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.timestamp('at', { useTz: true }).notNullable();
    t.integer('status_code');
    t.text('error');
    t.text('response_excerpt');
    t.integer('duration_ms').notNullable();
    t.primary(['delivery_id', 'attempt']);
  });
  await knex.raw(`create function gateway_task_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('gateway_task_changes', new.id);
      return null;
    end $$`);
  await knex.raw(`create trigger video_tasks_changed after update on video_tasks for each row
    when (old.status is distinct from new.status or old.progress is distinct from new.progress)
    execute function gateway_task_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists video_tasks_changed on video_tasks');
  await knex.raw('drop function if exists gateway_task_changed()');
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_account_secrets');
  await knex.schema.dropTable('webhook_endpoints');
  await knex.schema.alterTable('video_tasks', (t) => t.dropColumn('callback_url'));
}
