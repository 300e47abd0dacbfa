import type { Knex } from 'knex';
import { ADD, ROLLUP_OF } from './migrations/020-usage-indexes';

/**
 * The daily rollup (usage_daily) built off the write path (migration 043): raw rows are appended to usage_log alone,
 * and this job adds the rows above the watermark (usage_rollup_state.last_id) to usage_daily, advancing the watermark
 * in the same transaction. Readers add the raw rows above the watermark to the rollup (knex-usage-query.ts), so their
 * answers are exact whether or not the job has run.
 *
 * Ids are taken when a row is inserted but become visible when its transaction commits, so a committed id does not
 * mean every smaller id is committed. The job therefore first finds a horizon: it takes the fence (an advisory lock
 * every inserting transaction holds shared, migration 043's statement trigger) exclusively, without waiting, and
 * reads the largest id. Every transaction that took an id up to it has then ended, and later ones take larger ids.
 * A writer never waits on the job: when the fence is busy the job tries again shortly, then leaves the run to the next.
 */

/** Advisory lock classes (two-int keys, the second the schema's hash, so schemas never contend with each other). */
const FENCE = 20043;
const JOB = 20044;

export interface RollupOptions {
  /** rows added per run at most (the rest waits for the next run; readers count them from the raw rows meanwhile) */
  maxRows?: number;
  /** attempts at the fence before the run is left to the next one */
  fenceTries?: number;
  /** between attempts at the fence */
  wait?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The id up to which every row is committed (or rolled back), or null when inserting transactions held the fence. */
async function horizon(db: Knex, tries: number, wait: (ms: number) => Promise<void>): Promise<number | null> {
  for (let i = 0; i < tries; i++) {
    if (i) await wait(5 * i);
    const h = await db.transaction(async (trx) => {
      const lock = await trx.first(trx.raw('pg_try_advisory_xact_lock(?, hashtext(current_schema())) as got', [FENCE]));
      if (!lock.got) return null;
      const top = await trx('usage_log').max({ id: 'id' }).first();
      return Number(top?.id ?? 0);
    });
    if (h !== null) return h;
  }
  return null;
}

/**
 * One run: adds the raw rows above the watermark, up to the horizon (and at most maxRows ids), to usage_daily.
 * Returns how far the watermark moved in ids (0 when there was nothing to add, another instance was running, or the
 * fence stayed busy). Two runs at once never count a row twice: one holds the job's lock and the other returns, and
 * the watermark is read under a row lock and moved in the transaction that adds the rows.
 */
export async function rollUpUsage(db: Knex, opts: RollupOptions = {}): Promise<number> {
  const to = await horizon(db, opts.fenceTries ?? 5, opts.wait ?? sleep);
  if (to === null) return 0;
  return db.transaction(async (trx) => {
    const lock = await trx.first(trx.raw('pg_try_advisory_xact_lock(?, hashtext(current_schema())) as got', [JOB]));
    if (!lock.got) return 0;
    const state = await trx('usage_rollup_state').forUpdate().first('last_id');
    const from = Number(state.last_id);
    const until = Math.min(to, from + (opts.maxRows ?? 50_000));
    if (until <= from) return 0;
    await trx.raw(`insert into usage_daily ${ROLLUP_OF('(select * from usage_log where id > ? and id <= ?) as inserted')} ${ADD}`, [
      from,
      until,
    ]);
    await trx('usage_rollup_state').update({ last_id: until });
    return until - from;
  });
}

/** The watermark: every usage_log row with an id up to it is in usage_daily, none above it. */
export async function rolledUpTo(db: Knex): Promise<number> {
  const state = await db('usage_rollup_state').first('last_id');
  return Number(state.last_id);
}
