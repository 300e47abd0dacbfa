import type { Knex } from 'knex';

/**
 * The MCP gateway (docs/mcp.md): a key's own allow-list of MCP servers and tools (null = its group's), and the bytes
 * of a tool call's result on its usage row (the row's model is `<server>__<tool>`, its provider the server).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.jsonb('mcp');
  });
  await knex.schema.alterTable('usage_log', (t) => {
    t.bigInteger('bytes');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => t.dropColumn('bytes'));
  await knex.schema.alterTable('api_keys', (t) => t.dropColumn('mcp'));
}
