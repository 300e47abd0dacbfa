import type { Knex } from 'knex';
import { ADD, ROLLUP_OF } from './020-usage-indexes';

/**
 * The daily rollup is built by a job (usage-rollup.ts), not by a trigger in each inserting transaction: a usage row
 * costs its insert alone.
 *
 * - `usage_rollup_state.last_id`, the watermark: rows up to it are in usage_daily, rows above it are not. It starts at
 *   the largest id present, read while the table is locked against inserts, so the trigger has added every row up to
 *   it and the job adds every row after it: none twice, none missed.
 * - A statement trigger takes the fence (an advisory lock, shared) in every inserting transaction, so the job can tell
 *   when all ids up to a horizon are committed (see usage-rollup.ts). Shared holders never wait on each other.
 * - `down` adds the rows above the watermark to usage_daily before the trigger returns, under the same lock.
 */
const FENCE = `create function gateway_usage_fence() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(20043, hashtext(tg_table_schema));
      return null;
    end $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('lock table usage_log in share row exclusive mode');
  await knex.raw('drop trigger if exists usage_log_rollup on usage_log');
  await knex.raw('drop function if exists gateway_usage_rollup()');
  await knex.raw('create table usage_rollup_state (one boolean primary key default true check (one), last_id bigint not null)');
  await knex.raw('insert into usage_rollup_state (last_id) select coalesce(max(id), 0) from usage_log');
  await knex.raw(FENCE);
  await knex.raw('create trigger usage_log_fence before insert on usage_log for each statement execute function gateway_usage_fence()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('lock table usage_log in share row exclusive mode');
  await knex.raw('drop trigger if exists usage_log_fence on usage_log');
  await knex.raw('drop function if exists gateway_usage_fence()');
  await knex.raw(
    `insert into usage_daily ${ROLLUP_OF('(select * from usage_log where id > (select last_id from usage_rollup_state)) as inserted')} ${ADD}`,
  );
  await knex.raw('drop table usage_rollup_state');
  await knex.raw(`create function gateway_usage_rollup() returns trigger language plpgsql as $$
    begin
      insert into usage_daily ${ROLLUP_OF('inserted')} ${ADD};
      return null;
    end $$`);
  await knex.raw(`create trigger usage_log_rollup after insert on usage_log
    referencing new table as inserted for each statement execute function gateway_usage_rollup()`);
}
