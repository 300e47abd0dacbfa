import type { Knex } from 'knex';

/**
 * The books stay fast as they grow.
 *
 * - An index for each usage filter that had none (key, model, request id; the account, the time and the task had
 *   theirs), and one for the retention job's sweep of finished webhook deliveries. `if not exists`: on a large table
 *   an operator may build them beforehand with `create index concurrently` under these names (docs/operations.md,
 *   "Retention"), and the migration then takes no lock for them.
 * - `usage_daily`, a rollup kept in step with the raw rows: one row per UTC day, account, key, model, provider, status
 *   and wire format, added to by a statement trigger in the transaction that inserts the raw rows (a batch is one
 *   grouped upsert, in key order so concurrent batches do not deadlock). Raw rows are only ever inserted (and deleted
 *   by retention, which leaves the rollup: it is the books). A null in a key column is stored as ''.
 */
const INDEXES: Array<[string, string]> = [
  ['usage_log_key_created', 'usage_log (key_id, created_at)'],
  ['usage_log_model_created', 'usage_log (model, created_at)'],
  ['usage_log_request_id', 'usage_log (request_id)'],
  ['webhook_deliveries_finished', "webhook_deliveries (event_at) where state <> 'pending'"],
];

const KEY = 'day, account_id, key_id, model, provider, status, format';

/** What one raw row adds to its rollup row (the rules are knex-usage-query.ts's RAW_MEASURE). */
export const ROLLUP_OF = (from: string) => `
  select (created_at at time zone 'UTC')::date, coalesce(account_id, ''), coalesce(key_id, ''), coalesce(model, ''),
    coalesce(provider, ''), status, format,
    count(*) filter (where status <> 'refunded' and not (status = 'succeeded' and task_id is not null)),
    coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0),
    coalesce(sum(case when credits > 0 then credits end), 0), coalesce(-sum(case when credits < 0 then credits end), 0),
    coalesce(sum(case when video_delivered_seconds is not null then video_requested_seconds end), 0),
    coalesce(sum(video_delivered_seconds), 0)
  from ${from} group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7`;

export const ADD = `on conflict (${KEY}) do update set
  requests = usage_daily.requests + excluded.requests,
  input_tokens = usage_daily.input_tokens + excluded.input_tokens,
  output_tokens = usage_daily.output_tokens + excluded.output_tokens,
  credits = usage_daily.credits + excluded.credits,
  refunds = usage_daily.refunds + excluded.refunds,
  video_seconds_requested = usage_daily.video_seconds_requested + excluded.video_seconds_requested,
  video_seconds_delivered = usage_daily.video_seconds_delivered + excluded.video_seconds_delivered`;

export async function up(knex: Knex): Promise<void> {
  for (const [name, on] of INDEXES) await knex.raw(`create index if not exists ${name} on ${on}`);
  await knex.raw(`create table usage_daily (
    day date not null, account_id text not null, key_id text not null, model text not null, provider text not null,
    status text not null, format text not null,
    requests bigint not null, input_tokens bigint not null, output_tokens bigint not null,
    credits numeric(24, 6) not null, refunds numeric(24, 6) not null,
    video_seconds_requested numeric(18, 3) not null, video_seconds_delivered numeric(18, 3) not null,
    primary key (${KEY}))`);
  await knex.raw('create index usage_daily_account on usage_daily (account_id, day)');
  await knex.raw(`insert into usage_daily ${ROLLUP_OF('usage_log')} ${ADD}`);
  await knex.raw(`create function gateway_usage_rollup() returns trigger language plpgsql as $$
    begin
      insert into usage_daily ${ROLLUP_OF('inserted')} ${ADD};
      return null;
    end $$`);
  await knex.raw(`create trigger usage_log_rollup after insert on usage_log
    referencing new table as inserted for each statement execute function gateway_usage_rollup()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists usage_log_rollup on usage_log');
  await knex.raw('drop function if exists gateway_usage_rollup()');
  await knex.raw('drop table if exists usage_daily');
  for (const [name] of INDEXES) await knex.raw(`drop index if exists ${name}`);
}
