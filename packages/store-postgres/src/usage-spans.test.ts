import type { UsageGrouping, UsageRow, UsageSummaryFilter } from '@gateway/core';
import { KnexUsageLog } from './knex-usage-log';
import { KnexUsageQuery } from './knex-usage-query';
import { planUsageSpans } from './usage-spans';
import { describeOnTestDatabases } from '../test/test-databases';

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 0, 10);
const at = (ms: number) => new Date(BASE + ms);

/** A seeded generator (mulberry32): the same dataset and bounds on every run, different ones per seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

describe('planUsageSpans: the rollup for whole UTC days, raw rows for the partial days at the edges', () => {
  it('splits a range with partial days at both edges into two raw spans around the whole days', () => {
    expect(planUsageSpans({ from: at(3_600_000), to: at(3 * DAY + 60_000) })).toEqual({
      rollup: { from: at(DAY), to: at(3 * DAY) },
      raw: [
        { from: at(3_600_000), to: at(DAY) },
        { from: at(3 * DAY), to: at(3 * DAY + 60_000) },
      ],
    });
  });

  it('reads only the rollup for midnights and open bounds', () => {
    expect(planUsageSpans({ from: at(0), to: at(2 * DAY) })).toEqual({ rollup: { from: at(0), to: at(2 * DAY) }, raw: [] });
    expect(planUsageSpans({})).toEqual({ rollup: { from: undefined, to: undefined }, raw: [] });
    expect(planUsageSpans({ from: at(5) })).toEqual({ rollup: { from: at(DAY), to: undefined }, raw: [{ from: at(5), to: at(DAY) }] });
  });

  it('reads the raw rows when no whole day lies inside, for a task / request / idempotency key, or when told', () => {
    const inside = { from: at(3_600_000), to: at(DAY + 3_600_000) };
    expect(planUsageSpans(inside)).toEqual({ rollup: null, raw: [inside] });
    expect(planUsageSpans({ from: at(0), to: at(DAY), taskId: 't' })).toEqual({ rollup: null, raw: [{ from: at(0), to: at(DAY) }] });
    expect(planUsageSpans({ requestId: 'r' }).rollup).toBeNull();
    expect(planUsageSpans({ idempotencyKey: 'i' }).rollup).toBeNull();
    expect(planUsageSpans({ from: at(0), to: at(DAY) }, { rollup: false }).rollup).toBeNull();
  });

  it('never plans more than two raw spans, each shorter than a day, and covers [from, to) exactly once', () => {
    const r = random(7);
    for (let i = 0; i < 500; i++) {
      const from = r.next() < 0.2 ? undefined : at(r.int(10 * DAY));
      const to = r.next() < 0.2 ? undefined : at(r.int(10 * DAY));
      const plan = planUsageSpans({ from, to });
      expect(plan.raw.length).toBeLessThanOrEqual(2);
      if (plan.rollup) for (const s of plan.raw) expect(s.to!.getTime() - s.from!.getTime()).toBeLessThan(DAY);
      // every probe instant inside [from, to) falls in exactly one span, none outside
      for (let k = 0; k < 20; k++) {
        const t = r.int(12 * DAY) - DAY;
        const inside = (s: { from?: Date; to?: Date }) => (!s.from || s.from.getTime() <= BASE + t) && (!s.to || BASE + t < s.to.getTime());
        const hits = [...(plan.rollup ? [plan.rollup] : []), ...plan.raw].filter(inside).length;
        expect(hits).toBe(inside({ from, to }) ? 1 : 0);
      }
    }
  });
});

describeOnTestDatabases((target) => {
  describe(`KnexUsageQuery on ${target.name}: rollup plus edge days equals the raw rows, for random bounds`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    let planned: KnexUsageQuery;
    let rawOnly: KnexUsageQuery;
    const r = random(2026);
    const ACCOUNTS = ['acme', 'globex', 'initech'];
    const MODELS = ['model-a', 'model-b', null];
    const STATUSES = ['ok', 'ok', 'ok', 'error'];

    beforeAll(async () => {
      db = await target.open();
      planned = new KnexUsageQuery(db.knex);
      rawOnly = new KnexUsageQuery(db.knex, { rollup: false });
      const log = new KnexUsageLog(db.knex);
      // 400 rows at random instants over six UTC days (some at midnight exactly), a few video tasks among them
      for (let i = 0; i < 400; i++) {
        const createdAt = i % 50 === 0 ? at(r.int(6) * DAY) : at(r.int(6 * DAY));
        const accountId = r.pick(ACCOUNTS);
        const video = i % 40 === 1;
        const row: UsageRow = {
          rowId: `spans-${i}`,
          requestId: `req-${i}`,
          accountId,
          keyId: r.next() < 0.1 ? null : `${accountId}-key-${r.int(3)}`,
          model: r.pick(MODELS),
          provider: r.pick(['sim', 'other']),
          format: 'openai-chat',
          status: video ? r.pick(['queued', 'succeeded', 'refunded']) : r.pick(STATUSES),
          httpStatus: 200,
          inputTokens: r.int(1000),
          outputTokens: r.next() < 0.1 ? undefined : r.int(300),
          credits: r.next() < 0.2 ? undefined : (r.int(2000) - 300) / 100,
          createdAt,
          ...(video && {
            taskId: `task-${i}`,
            video: { requested: { seconds: 8, resolution: '720p' }, delivered: { seconds: r.int(9), resolution: '720p' } },
          }),
        };
        log.record(row);
      }
      await log.flush();
    });
    afterAll(async () => db.drop());

    const bound = () => {
      const x = r.next();
      if (x < 0.15) return undefined;
      if (x < 0.3) return at((r.int(8) - 1) * DAY); // a midnight
      return at(r.int(8 * DAY) - DAY); // anywhere, a day either side of the data included
    };
    const filters: Array<Partial<UsageSummaryFilter>> = [
      {},
      { accountId: 'acme' },
      { keyId: 'globex-key-1' },
      { model: 'model-a' },
      { status: 'ok', provider: 'sim' },
      { accountId: 'initech', model: 'model-b' },
    ];

    it('summary: 120 random (from, to, group_by, filter, limit) give the same groups either way', async () => {
      let mixed = 0;
      let nonEmpty = 0;
      for (let i = 0; i < 120; i++) {
        const f: UsageSummaryFilter = {
          ...r.pick(filters),
          from: bound(),
          to: bound(),
          groupBy: r.pick(['day', 'model', 'key', 'account'] as UsageGrouping[]),
          limit: r.next() < 0.3 ? 1 + r.int(3) : 100,
        };
        const plan = planUsageSpans(f);
        if (plan.rollup && plan.raw.length) mixed++;
        const want = await rawOnly.summary(f);
        if (want.groups.length) nonEmpty++;
        expect({ f, got: await planned.summary(f) }).toEqual({ f, got: want });
      }
      // the property was exercised where it matters: rollup and raw spans combined, over real groups
      expect(mixed).toBeGreaterThan(40);
      expect(nonEmpty).toBeGreaterThan(60);
    });

    it("daily totals (one account's, as /v1/usage): 40 random (from, to, filter) give the same either way", async () => {
      for (let i = 0; i < 40; i++) {
        const f = { ...r.pick(filters), accountId: r.pick(ACCOUNTS), from: bound(), to: bound() };
        expect({ f, got: await planned.dailyTotals(f) }).toEqual({ f, got: await rawOnly.dailyTotals(f) });
      }
    });
  });
});
