import type { Knex } from 'knex';
import type { UsageRow } from '@gateway/core';
import { eventually } from '@gateway/testkit';
import { KnexUsageLog } from './knex-usage-log';
import { KnexUsageQuery } from './knex-usage-query';
import { rolledUpTo, rollUpUsage } from './usage-rollup';
import { down, up } from './migrations/043-usage-rollup-job';
import { describeOnTestDatabases } from '../test/test-databases';

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 0, 10);

/** `n` rows over four UTC days, three accounts, two models; a few refunds and video settlements among them. */
function rows(prefix: string, n: number): UsageRow[] {
  return Array.from({ length: n }, (_, i) => ({
    rowId: `${prefix}-${i}`,
    requestId: `${prefix}-req-${i}`,
    accountId: ['acme', 'globex', 'initech'][i % 3]!,
    keyId: `key-${i % 5}`,
    model: i % 7 === 0 ? null : `model-${i % 2}`,
    provider: 'sim',
    format: 'openai-chat',
    status: i % 11 === 0 ? 'refunded' : 'ok',
    httpStatus: 200,
    inputTokens: 10 + i,
    outputTokens: i % 4 === 0 ? undefined : i,
    credits: i % 11 === 0 ? -1 : (i % 9) / 4,
    createdAt: new Date(BASE + ((i * 7_919_000) % (4 * DAY))),
  }));
}

async function write(knex: Knex, batch: UsageRow[]): Promise<void> {
  const log = new KnexUsageLog(knex, { rollupMs: 0 });
  for (const r of batch) log.record(r);
  await log.flush();
  log.stop();
}

/** What the reports answer, read through the rollup (planned) and from the raw rows alone (the reference). */
async function reports(q: KnexUsageQuery) {
  const from = new Date(BASE);
  return {
    byDay: await q.summary({ groupBy: 'day', limit: 100 }),
    byModel: await q.summary({ groupBy: 'model', limit: 100, from, to: new Date(BASE + 3 * DAY) }),
    byKeyPartial: await q.summary({ groupBy: 'key', limit: 100, from: new Date(BASE + 3_600_000), to: new Date(BASE + 3 * DAY + 60_000) }),
    daily: await q.dailyTotals({ accountId: 'globex', from }),
  };
}

/** The rollup's own totals against the raw rows' (the rollup must hold each row up to the watermark exactly once). */
async function booksUpTo(knex: Knex, watermark: number) {
  const [rolled] = await knex('usage_daily').sum({ tokens: 'input_tokens', credits: 'credits' });
  const [raw] = await knex('usage_log')
    .where('id', '<=', watermark)
    .sum({ tokens: 'input_tokens', credits: knex.raw('case when credits > 0 then credits end') });
  return {
    rolled: { tokens: Number(rolled!.tokens ?? 0), credits: Number(rolled!.credits ?? 0) },
    raw: { tokens: Number(raw!.tokens ?? 0), credits: Number(raw!.credits ?? 0) },
  };
}

describeOnTestDatabases((target) => {
  describe(`the usage rollup job on ${target.name}: exact before, during and after its runs`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    let planned: KnexUsageQuery;
    let rawOnly: KnexUsageQuery;
    beforeEach(async () => {
      db = await target.open();
      planned = new KnexUsageQuery(db.knex);
      rawOnly = new KnexUsageQuery(db.knex, { rollup: false });
    });
    afterEach(async () => db.drop());

    const exact = async () => expect(await reports(planned)).toEqual(await reports(rawOnly));
    const balanced = async () => {
      const books = await booksUpTo(db.knex, await rolledUpTo(db.knex));
      expect(books.rolled.tokens).toBe(books.raw.tokens);
      expect(books.rolled.credits).toBeCloseTo(books.raw.credits, 6);
    };

    it('rows read before the job runs give the same totals as after a partial run and after a full one', async () => {
      await write(db.knex, rows('a', 300));
      expect(await rolledUpTo(db.knex)).toBe(0);
      const before = await reports(planned);
      expect(before).toEqual(await reports(rawOnly));
      expect(before.byDay.groups.length).toBe(4);

      expect(await rollUpUsage(db.knex, { maxRows: 120 })).toBe(120);
      expect(await reports(planned)).toEqual(before);
      await balanced();

      while ((await rollUpUsage(db.knex)) > 0);
      expect(await rolledUpTo(db.knex)).toBe(300);
      expect(await reports(planned)).toEqual(before);
      await balanced();

      await write(db.knex, rows('b', 40));
      await exact();
    });

    it('the usage log runs the job behind its writes, covering rows other writers inserted', async () => {
      await write(db.knex, rows('g', 20));
      const log = new KnexUsageLog(db.knex, { rollupMs: 1 });
      try {
        for (const r of rows('h', 30)) log.record(r);
        await log.flush();
        await eventually(async () => expect(await rolledUpTo(db.knex)).toBe(50));
      } finally {
        log.stop();
      }
      await balanced();
      await exact();
    });

    it('two jobs at once never count a row twice', async () => {
      await write(db.knex, rows('c', 400));
      for (let i = 0; i < 10; i++) {
        await Promise.all([1, 2, 3].map(() => rollUpUsage(db.knex, { maxRows: 37 })));
        await balanced();
      }
      while ((await rollUpUsage(db.knex)) > 0);
      expect(await rolledUpTo(db.knex)).toBe(400);
      await balanced();
      await exact();
    });

    it('a crash before the job, or inside it, loses nothing and counts nothing twice', async () => {
      // the writer is gone (stopped) before any job ran: the rows wait above the watermark, counted from the raw rows
      await write(db.knex, rows('d', 200));
      await exact();
      // a run that dies after adding to the rollup, before moving the watermark: all of it is rolled back
      await db.knex.raw(`create function t_fail() returns trigger language plpgsql as $$ begin raise exception 'killed'; end $$`);
      await db.knex.raw('create trigger t_fail before update on usage_rollup_state for each row execute function t_fail()');
      await expect(rollUpUsage(db.knex)).rejects.toThrow(/killed/);
      expect(Number((await db.knex('usage_daily').count({ n: '*' }))[0]!.n)).toBe(0);
      await exact();
      await db.knex.raw('drop trigger t_fail on usage_rollup_state');
      while ((await rollUpUsage(db.knex)) > 0);
      expect(await rolledUpTo(db.knex)).toBe(200);
      await balanced();
      await exact();
    });

    if (target.name === 'postgres')
      it('an id committed late is neither missed nor counted twice: the job stops below an open inserting transaction', async () => {
        await write(db.knex, rows('e', 10));
        const open = await db.knex.transaction();
        try {
          await write(open, rows('late', 5)); // ids 11..15, not committed yet
          await write(db.knex, rows('f', 10)); // ids 16..25, committed
          expect(await rollUpUsage(db.knex, { fenceTries: 1 })).toBe(0);
          expect(await rolledUpTo(db.knex)).toBe(0);
          await exact();
          await open.commit();
        } catch (e) {
          await open.rollback();
          throw e;
        }
        await exact();
        while ((await rollUpUsage(db.knex)) > 0);
        expect(await rolledUpTo(db.knex)).toBe(25);
        await balanced();
        await exact();
      });

    it('migration 043 over a table with rows and rollups: none counted twice across the switch, either way', async () => {
      await db.knex.transaction((trx) => down(trx));
      await write(db.knex, rows('old', 150)); // rolled up by migration 020's trigger
      await db.knex.transaction((trx) => up(trx));
      expect(await rolledUpTo(db.knex)).toBe(150);
      await balanced();
      await write(db.knex, rows('new', 90));
      await exact();
      await rollUpUsage(db.knex, { maxRows: 50 });
      await exact();
      // down adds what the job had not yet, and the trigger is back for the next rows
      await db.knex.transaction((trx) => down(trx));
      await write(db.knex, rows('after', 30));
      await booksEqualRaw(db.knex);
      await db.knex.transaction((trx) => up(trx));
      expect(await rolledUpTo(db.knex)).toBe(270);
      await exact();
    });
  });
});

/** Without the job's table (migration 043 undone), the rollup must hold every raw row once. */
async function booksEqualRaw(knex: Knex): Promise<void> {
  const books = await booksUpTo(knex, Number.MAX_SAFE_INTEGER);
  expect(books.rolled.tokens).toBe(books.raw.tokens);
  expect(books.rolled.credits).toBeCloseTo(books.raw.credits, 6);
}
