import type { Knex } from 'knex';

/** A provider entry's `options.headers` in a snapshot, each value masked (they may be upstream credentials). */
const maskedHeaders = (column: 'before' | 'after') => `case when jsonb_typeof(${column} #> '{options,headers}') = 'object'
  then jsonb_set(${column}, '{options,headers}',
    (select coalesce(jsonb_object_agg(name, '"(masked)"'::jsonb), '{}'::jsonb) from jsonb_object_keys(${column} #> '{options,headers}') name))
  else ${column} end`;

/**
 * The audit log's integrity. Migration 018's row trigger refuses UPDATE and DELETE, but TRUNCATE fires no row
 * trigger: a statement trigger refuses it too. Provider records written before header values were masked (an
 * Azure `api-key`, an `Authorization` in `options.headers`) are masked once here, the only edit the log ever gets.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only()',
  );
  await knex.raw('alter table audit_log disable trigger audit_log_append_only');
  await knex.raw(`update audit_log set before = ${maskedHeaders('before')}, after = ${maskedHeaders('after')}
    where target_type = 'provider'
      and (jsonb_typeof(before #> '{options,headers}') = 'object' or jsonb_typeof(after #> '{options,headers}') = 'object')`);
  await knex.raw('alter table audit_log enable trigger audit_log_append_only');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists audit_log_no_truncate on audit_log');
}
