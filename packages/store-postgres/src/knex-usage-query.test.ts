import type { UsageGrouping, UsageRow } from '@gateway/core';
import { KnexUsageLog } from './knex-usage-log';
import { KnexUsageQuery } from './knex-usage-query';
import { describeOnTestDatabases } from '../test/test-databases';

const DAY = 86_400_000;
const today = new Date(Math.floor(Date.now() / DAY) * DAY);

const row = (i: number, extra: Partial<UsageRow> = {}): UsageRow => ({
  rowId: `rollup-${i}`,
  requestId: `req-${i}`,
  accountId: i % 3 ? 'acme' : 'globex',
  keyId: i % 4 ? `key-${i % 4}` : null,
  model: i % 5 ? `model-${i % 2}` : null,
  provider: 'sim',
  format: 'openai-chat',
  status: i % 7 ? 'ok' : 'error',
  httpStatus: 200,
  inputTokens: i * 3,
  outputTokens: i,
  credits: i % 2 ? i / 10 : undefined,
  createdAt: new Date(today.getTime() - (i % 4) * DAY + 3_600_000),
  ...extra,
});

describeOnTestDatabases((target) => {
  describe(`KnexUsageQuery on ${target.name}: the daily rollup agrees with the raw rows`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    let query: KnexUsageQuery;
    let rawOnly: KnexUsageQuery;
    beforeAll(async () => {
      db = await target.open();
      query = new KnexUsageQuery(db.knex);
      rawOnly = new KnexUsageQuery(db.knex, { rollup: false });
      const log = new KnexUsageLog(db.knex);
      for (let i = 1; i <= 40; i++) log.record(row(i));
      // a video task: creation row, settlement row and a refund (bookkeeping rows are not requests)
      const video = { requested: { seconds: 8, resolution: '720p' } };
      log.record(row(100, { taskId: 't1', status: 'queued', credits: 8, video }));
      log.record(
        row(101, { taskId: 't1', status: 'succeeded', credits: -2, video: { ...video, delivered: { seconds: 6, resolution: '720p' } } }),
      );
      log.record(row(102, { taskId: 't2', status: 'refunded', credits: -3 }));
      await log.flush();
      // the same rows replayed (a spool replay): written once, counted once
      const again = new KnexUsageLog(db.knex);
      for (let i = 1; i <= 40; i++) again.record(row(i));
      await again.flush();
    });
    afterAll(async () => db.drop());

    // the raw rows alone (rollup: false) are the reference; whole days read the rollup
    const rolled = { from: new Date(today.getTime() - 30 * DAY) };

    it.each(['day', 'model', 'key', 'account'] as UsageGrouping[])('group_by=%s: the same groups either way', async (groupBy) => {
      const fromRaw = await rawOnly.summary({ ...rolled, groupBy, limit: 100 });
      const fromRollup = await query.summary({ ...rolled, groupBy, limit: 100 });
      expect(fromRollup).toEqual(fromRaw);
      expect(fromRaw.groups.length).toBeGreaterThan(1);
    });

    it('filters alike (account, key, model, status), and daily totals too', async () => {
      const filters = [{ accountId: 'acme' }, { keyId: 'key-1' }, { model: 'model-0', status: 'ok' }];
      for (const f of filters)
        expect(await query.summary({ ...rolled, ...f, groupBy: 'day', limit: 100 })).toEqual(
          await rawOnly.summary({ ...rolled, ...f, groupBy: 'day', limit: 100 }),
        );
      expect(await query.dailyTotals({ ...rolled, accountId: 'acme' })).toEqual(
        await rawOnly.dailyTotals({ ...rolled, accountId: 'acme' }),
      );
    });

    it('counts each row once (replays included) and a video task once', async () => {
      const [all] = (await query.summary({ groupBy: 'account', accountId: 'acme', limit: 10, model: 'model-1' })).groups;
      const rows = [...Array(40).keys()].map((i) => row(i + 1)).filter((r) => r.accountId === 'acme' && r.model === 'model-1');
      expect(all!.requests).toBe(rows.length);
      const videos = (await query.summary({ groupBy: 'day', limit: 10, provider: 'sim', status: 'succeeded' })).groups;
      expect(videos.reduce((n, g) => n + g.requests, 0)).toBe(0);
      const byTask = (await query.summary({ groupBy: 'account', limit: 10, accountId: row(100).accountId!, format: 'openai-chat' })).groups;
      expect(byTask[0]!.videoSecondsDelivered).toBe(6);
    });

    it('latency: p50/p95 and errors per model and per provider over the raw rows, bookkeeping rows left out', async () => {
      const latency = new KnexUsageLog(db.knex);
      const at = new Date(today.getTime() + 7_200_000);
      [10, 20, 30, 40, 500].forEach((ms, i) =>
        latency.record(row(200 + i, { model: 'timed', provider: 'timer', latencyMs: ms, createdAt: at, status: i === 4 ? 'error' : 'ok' })),
      );
      latency.record(row(210, { model: 'timed', provider: 'timer', status: 'refunded', latencyMs: 9999, createdAt: at }));
      await latency.flush();
      const byModel = await query.latency({ groupBy: 'model', model: 'timed', limit: 10 });
      expect(byModel).toEqual({
        hasMore: false,
        groups: [{ group: 'timed', requests: 5, errors: 1, latencyP50Ms: 30, latencyP95Ms: 408 }],
      });
      const byProvider = await query.latency({ groupBy: 'provider', provider: 'timer', from: at, limit: 10 });
      expect(byProvider.groups).toEqual([{ ...byModel.groups[0], group: 'timer' }]);
    });
  });
  describe(`usage units on ${target.name}`, () => {
    it("keeps the metered kinds' units and the estimated flag, and shows none on rows without them", async () => {
      const db = await target.open();
      try {
        const log = new KnexUsageLog(db.knex);
        log.record(row(1, { requestId: 'units-1', characters: 42, audioSeconds: 2.5, searchUnits: 3, estimated: true }));
        log.record(row(2, { requestId: 'units-2' }));
        await log.flush();
        const query = new KnexUsageQuery(db.knex);
        const [withUnits] = (await query.list({ accountId: 'acme', requestId: 'units-1', limit: 5 })).rows;
        expect(withUnits).toMatchObject({ characters: 42, audioSeconds: 2.5, searchUnits: 3, estimated: true });
        const [plain] = (await query.list({ accountId: 'acme', requestId: 'units-2', limit: 5 })).rows;
        expect(plain).toBeDefined();
        for (const k of ['characters', 'audioSeconds', 'searchUnits', 'estimated']) expect(plain).not.toHaveProperty(k);
      } finally {
        await db.drop();
      }
    });
  });
});
