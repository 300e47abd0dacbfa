import type { Knex } from 'knex';

/**
 * MCP servers registered through the admin API (docs/mcp.md), beside the config file's: each header value sealed
 * (secret-box.ts, MCP_HEADERS). Ids equal but for case would make tool names ambiguous: one index refuses them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mcp_servers', (t) => {
    t.text('id').primary();
    t.text('url').notNullable();
    t.jsonb('headers').notNullable().defaultTo('{}');
    t.double('price_per_call');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create unique index mcp_servers_folded_id on mcp_servers (lower(id))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('mcp_servers');
}
