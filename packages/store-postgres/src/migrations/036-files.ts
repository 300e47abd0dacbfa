import type { Knex } from 'knex';

/**
 * Files of the OpenAI Files API (core/use-cases/files.ts): metadata only, the bytes are in the content store under
 * `files/<id>`. Ids sort by creation, so a list pages by (account, id); the expiry index is the retention sweep's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('files', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable();
    t.text('filename').notNullable();
    t.text('purpose').notNullable();
    t.bigInteger('bytes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true });
    t.index(['account_id', 'id']);
  });
  await knex.raw('create index files_expires_at on files (expires_at) where expires_at is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('files');
}
