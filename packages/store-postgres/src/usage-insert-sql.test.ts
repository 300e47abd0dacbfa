import fc from 'fast-check';
import type { UsageRow } from '@gateway/core';
import { insertUsageRows, USAGE_INSERT_COLUMNS } from './usage-insert-sql';
import { usageRowToColumns } from './usage-row.codec';
import { describeOnTestDatabases } from '../test/test-databases';

/** Text as callers may send it: any code point (lone surrogate halves included) but NUL, and the characters JSON escapes. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\0')),
  fc.constantFrom('', '"', '\\', '\\u0000', '\n\t\r\b\f', '\u0001\u001f\u007f', '\u2028\u2029', '😀', 'é', '\ud800', 'a\udc00b', "'; --"),
);
const maybeText = fc.option(text, { nil: null });
const int = fc.option(fc.integer({ min: -2147483648, max: 2147483647 }), { nil: undefined });
const big = fc.option(fc.maxSafeInteger(), { nil: undefined });
const edgeCredits = fc.constantFrom(99999999999999.9, -99999999999999.9, -0.000001, 0.0000005, 1e-7, -0, 123.4567895, Number.NaN);
const credits = fc.option(fc.oneof(fc.double({ min: -1e13, max: 1e13, noNaN: true }), edgeCredits), { nil: undefined });
const shape = fc.record({ seconds: fc.double({ min: 0, max: 1e8, noNaN: true }), resolution: text });

const usageRow = fc.record({
  requestId: text,
  accountId: maybeText,
  keyId: maybeText,
  model: maybeText,
  format: text,
  status: text,
  httpStatus: fc.integer({ min: 100, max: 599 }),
  errorCode: maybeText,
  inputTokens: int,
  outputTokens: int,
  cachedTokens: int,
  cacheWriteTokens: int,
  reasoningTokens: int,
  characters: big,
  audioSeconds: fc.option(fc.double(), { nil: undefined }),
  searchUnits: int,
  estimated: fc.option(fc.boolean(), { nil: undefined }),
  cacheHit: fc.option(fc.boolean(), { nil: undefined }),
  latencyMs: fc.option(fc.double({ min: -1e9, max: 1e9, noNaN: true }), { nil: undefined }),
  ttftMs: fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: null }),
  taskId: maybeText,
  idempotencyKey: maybeText,
  batchId: maybeText,
  provider: maybeText,
  upstreamRequestId: maybeText,
  attempts: int,
  warnings: fc.option(fc.array(text, { maxLength: 3 }), { nil: undefined }),
  credits,
  video: fc.option(fc.record({ requested: shape, delivered: fc.option(shape, { nil: null }) }), { nil: null }),
  bytes: big,
  guardrails: fc.option(fc.array(fc.record({ id: text, mode: text, phase: text, action: text }), { maxLength: 2 }), { nil: null }),
  createdAt: fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }),
}) as fc.Arbitrary<UsageRow>;

describeOnTestDatabases((target) => {
  describe(`the usage insert's one JSON parameter on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    beforeAll(async () => (db = await target.open()));
    afterAll(async () => db.drop());

    /** Each stored row under `prefix`, every column but the ids, in insert order (as text: numerics keep their scale). */
    const stored = async (prefix: string) =>
      (
        await db.knex.raw(`select (to_jsonb(u) - 'id' - 'row_id')::text as r from usage_log u where row_id like ? order by id`, [
          `${prefix}%`,
        ])
      ).rows.map((r: { r: string }) => r.r);

    it('stores every row exactly as the plain multi-row insert does (generated rows, edge values)', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(usageRow, { minLength: 2, maxLength: 8 }), async (rows) => {
          run++;
          const as = (p: string) => rows.map((r, i) => ({ ...r, rowId: `${p}${run}_${i}` }));
          const refused = await db
            .knex('usage_log')
            .insert(as('plain_').map(usageRowToColumns))
            .onConflict('row_id')
            .ignore()
            .then(
              () => false,
              () => true,
            );
          // a lone surrogate half in warnings or guardrails: the codec's JSON text has its escape, which jsonb refuses
          if (refused) return void (await expect(insertUsageRows(db.knex, as('json_'))).rejects.toThrow('json'));
          await insertUsageRows(db.knex, as('json_'));
          const [plain, json] = [await stored(`plain_${run}_`), await stored(`json_${run}_`)];
          expect(json).toHaveLength(rows.length);
          expect(json).toEqual(plain);
        }),
        { numRuns: 60 },
      );
    });

    const base: UsageRow = { requestId: 'r', accountId: null, keyId: null, model: null, format: 'f', status: 'ok', httpStatus: 200 };
    /** Two rows: a lone row goes as parameters, a group as the JSON document */
    const pair = (rowId: string, extra: Partial<UsageRow> = {}): UsageRow[] => [
      { ...base, ...extra, rowId, createdAt: new Date() },
      { ...base, rowId: `${rowId}_2`, createdAt: new Date() },
    ];

    it('writes every column of the table but its id, and leaves a row already there as it is', async () => {
      const table = await db.knex.raw(
        `select column_name as c from information_schema.columns where table_name = 'usage_log' and table_schema = current_schema()`,
      );
      expect([...USAGE_INSERT_COLUMNS].sort()).toEqual(Object.keys(usageRowToColumns(pair('x')[0]!)).sort());
      expect([...USAGE_INSERT_COLUMNS, 'id'].sort()).toEqual(table.rows.map((r: { c: string }) => r.c).sort());
      await insertUsageRows(db.knex, [...pair('once', { requestId: 'first' }), ...pair('once', { requestId: 'second' })]);
      await insertUsageRows(db.knex, pair('once', { requestId: 'third' }));
      await insertUsageRows(db.knex, pair('once', { requestId: 'fourth' }).slice(0, 1));
      expect(await db.knex('usage_log').where({ row_id: 'once' }).pluck('request_id')).toEqual(['first']);
      expect(await db.knex('usage_log').where({ row_id: 'once_2' }).pluck('request_id')).toEqual(['r']);
    });

    it("fires the rollup fence (migration 043's statement trigger) in the inserting transaction", async () => {
      const held = await db.knex.transaction(async (trx) => {
        await insertUsageRows(trx, pair('fenced'));
        const r = await trx.raw(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = 20043 and pid = pg_backend_pid()`,
        );
        return r.rows[0].n;
      });
      expect(held).toBe(1);
    });

    it('stores a row whose text holds NUL, or whose warnings hold a lone surrogate half, with U+FFFD in their place (never refused)', async () => {
      const odd: Partial<UsageRow> = { requestId: 'a\0b', model: 'm\0', warnings: ['w\0', 'x\ud800y'] };
      await db.knex('usage_log').insert(pair('nul_plain', odd).map(usageRowToColumns));
      await insertUsageRows(db.knex, pair('nul_json', odd));
      for (const id of ['nul_plain', 'nul_json']) {
        const [row] = await db.knex('usage_log').where({ row_id: id }).select('request_id', 'model', 'warnings');
        expect(row).toEqual({ request_id: 'a\uFFFDb', model: 'm\uFFFD', warnings: ['w\uFFFD', 'x\uFFFDy'] });
        expect(
          await db
            .knex('usage_log')
            .where({ row_id: `${id}_2` })
            .pluck('request_id'),
        ).toEqual(['r']);
      }
    });
  });
});
