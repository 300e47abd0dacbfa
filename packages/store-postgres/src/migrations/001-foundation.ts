import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('group_name').notNullable();
    t.text('key_hash').notNullable().unique();
    t.text('key_prefix').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.index(['account_id']);
  });
  await knex.schema.createTable('video_tasks', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable();
    t.text('key_id').notNullable();
    t.text('model').notNullable();
    t.text('format').notNullable();
    t.text('status').notNullable();
    t.integer('progress').notNullable().defaultTo(0);
    t.jsonb('request').notNullable();
    t.integer('priority').notNullable().defaultTo(0);
    t.text('service_tier').notNullable().defaultTo('default');
    t.integer('execution_expires_after').notNullable();
    t.jsonb('error');
    t.jsonb('delivery');
    t.jsonb('upstream');
    t.text('idempotency_key');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    // worker bookkeeping
    t.text('lease_owner');
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('next_poll_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('poll_attempts').notNullable().defaultTo(0);
    t.index(['account_id', 'created_at']);
    t.index(['status', 'next_poll_at']);
  });
  // Mirrors the core's TaskStatus list: the database refuses anything else.
  await knex.raw(
    "alter table video_tasks add constraint video_tasks_status_check check (status in ('queued','running','succeeded','failed','cancelled','expired'))",
  );
  await knex.raw(
    'create unique index video_tasks_idempotency on video_tasks (account_id, idempotency_key) where idempotency_key is not null',
  );
  await knex.schema.createTable('usage_log', (t) => {
    t.bigIncrements('id').primary();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('request_id').notNullable();
    t.text('account_id');
    t.text('key_id');
    t.text('model');
    t.text('format').notNullable();
    t.text('status').notNullable();
    t.integer('http_status').notNullable();
    t.text('error_code');
    t.integer('input_tokens');
    t.integer('output_tokens');
    t.integer('cached_tokens');
    t.integer('reasoning_tokens');
    t.integer('latency_ms');
    t.integer('ttft_ms');
    t.text('task_id');
    t.text('idempotency_key');
    t.text('provider');
    t.integer('attempts');
    t.jsonb('warnings');
    t.index(['account_id', 'created_at']);
    t.index(['task_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['usage_log', 'video_tasks', 'api_keys', 'accounts']) await knex.schema.dropTableIfExists(t);
}
