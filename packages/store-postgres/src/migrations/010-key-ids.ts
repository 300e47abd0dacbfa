import type { Knex } from 'knex';
import { newKeyId } from '@gateway/core';

/**
 * Key ids made from the key's hash (`key` + the first 24 hex digits of its unsalted SHA-256, written by config-file
 * bootstrap before this migration) told every key of an account something about the others. Each such key gets a
 * random id, and every row that names the old id (usage, tasks, whatever table has a key_id) follows it.
 */
export async function up(knex: Knex): Promise<void> {
  const derived = await knex('api_keys').whereRaw("id = 'key' || substr(key_hash, 1, 24)").select('id');
  if (derived.length === 0) return;
  const { rows } = (await knex.raw(
    "select table_name from information_schema.columns where column_name = 'key_id' and table_schema = current_schema()",
  )) as { rows: Array<{ table_name: string }> };
  for (const { id } of derived) {
    const next = newKeyId();
    await knex('api_keys').where({ id }).update({ id: next });
    for (const { table_name } of rows) await knex(table_name).where({ key_id: id }).update({ key_id: next });
  }
}

/** Random ids cannot be turned back into hash-derived ones, and need not be. */
export async function down(): Promise<void> {}
