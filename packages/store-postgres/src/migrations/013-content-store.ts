import type { Knex } from 'knex';

/**
 * CONTENT_STORE=postgres: media bytes in chunks, so replicas on different hosts share them without a volume.
 * An object row is written first with `key` null (invisible to readers) while its chunks stream in; the finished
 * object takes over its key in one transaction, so a reader sees the old bytes or the new ones, never half.
 * content_probes: one row per running instance, so instances can check they read each other's content (start-up).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content_objects', (t) => {
    t.text('id').primary();
    t.text('key').unique();
    t.bigInteger('size');
    t.integer('chunk_size').notNullable();
    t.timestamp('written_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['written_at'], 'content_objects_written_at');
  });
  await knex.schema.createTable('content_chunks', (t) => {
    t.text('object_id').notNullable().references('id').inTable('content_objects').onDelete('CASCADE');
    t.integer('idx').notNullable();
    t.binary('data').notNullable();
    t.primary(['object_id', 'idx']);
  });
  await knex.schema.createTable('content_probes', (t) => {
    t.text('instance_id').primary();
    t.text('store').notNullable();
    t.text('probe_key').notNullable();
    t.text('token').notNullable();
    t.timestamp('seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('content_probes');
  await knex.schema.dropTable('content_chunks');
  await knex.schema.dropTable('content_objects');
}
