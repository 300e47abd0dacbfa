/**
 * `npm run bench:usage-insert` — what writing a usage row costs, per row, on the embedded store and on
 * PostgreSQL.
 *
 * Each store (PGlite in memory; PostgreSQL on BENCH_DATABASE_URL, else TEST_DATABASE_URL, in a schema of its own) gets
 * every migration and USAGE_INSERT_SEED rows (default 100,000) first, so the indexes have the depth of a used table.
 * Rows then go through KnexUsageLog's own write path (one insert statement per group) in groups of 1, 50 and 500,
 * under variants of the table: before migration 043 (migration 020's rollup trigger in each inserting statement), as
 * migrated (043's fence trigger), without the fence, and without each secondary index. Where the rollup is the job's,
 * one job run after each measurement is counted too (`+ job`: its CPU per row rolled up). Variants alternate within
 * each of USAGE_INSERT_ROUNDS rounds (default 3); the rows name USAGE_INSERT_KEYS keys (default 2000); `--triggers`
 * measures the first three variants only; `--encoding` the group's insert alone, as 36 bind parameters a row
 * (knex's multi-row insert) against the rows as one JSON parameter (what the usage log sends). The median of the rounds
 * (in brackets their range) is printed as CPU µs per row (this process, plus the PostgreSQL backend's), in a Markdown
 * table.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { KnexUsageLog, openDatabase, rollUpUsage, type Database } from '@gateway/store-postgres';
import type { Knex } from 'knex';
import type { UsageRow } from '@gateway/core';
import { down, up } from '../packages/store-postgres/src/migrations/043-usage-rollup-job';
import { insertUsageRows } from '../packages/store-postgres/src/usage-insert-sql';
import { usageRowToColumns } from '../packages/store-postgres/src/usage-row.codec';

const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const SEED = Number(process.env.USAGE_INSERT_SEED ?? 100_000);
const ROUNDS = Number(process.env.USAGE_INSERT_ROUNDS ?? 3);
/** distinct keys among the written rows (each of one of 200 accounts, or fewer): the rollup's groups per day */
const KEYS = Number(process.env.USAGE_INSERT_KEYS ?? 2000);
/** rows written per measurement for each group size: enough groups to time, few enough for a 2-core machine */
const ROWS: Record<number, number> = { 1: 300, 50: 2000, 500: 5000 };
/** the group sizes measured (USAGE_INSERT_GROUPS, comma-separated; another size writes 100 groups) */
const GROUPS = (process.env.USAGE_INSERT_GROUPS ?? '1,50,500').split(',').map(Number);
const rowsOf = (group: number) => ROWS[group] ?? group * 100;

interface Variant {
  name: string;
  set(db: Database): Promise<void>;
  reset(db: Database): Promise<void>;
  /** `--encoding`: the group's insert itself, in place of the usage log's */
  write?(db: Database, rows: UsageRow[]): Promise<void>;
}

const row = (i: number): UsageRow => ({
  requestId: `req_${randomUUID()}`,
  accountId: `acct_${(i % KEYS) % 200}`,
  keyId: `key_${i % KEYS}`,
  model: `model-${i % 8}`,
  provider: `provider-${i % 3}`,
  format: 'openai-chat',
  status: 'ok',
  httpStatus: 200,
  inputTokens: 100 + (i % 900),
  outputTokens: i % 300,
  latencyMs: 100 + (i % 900),
  attempts: 1,
  credits: 0.01,
});

async function indexes(db: Database): Promise<Array<{ name: string; def: string }>> {
  const r = await db.knex.raw(
    `select indexname as name, indexdef as def from pg_indexes where tablename = 'usage_log' and schemaname = current_schema()
     and indexname not in ('usage_log_pkey', 'usage_log_row_id') order by 1`,
  );
  return r.rows;
}

/** The variants measured: the table before migration 043 (the rollup trigger), as migrated, and without each part. */
async function variants(db: Database): Promise<Variant[]> {
  const none = async () => undefined;
  const inTransaction = (fn: (k: Knex) => Promise<void>) => async () => db.knex.transaction((trx) => fn(trx));
  const noFence = async () => void (await db.knex.raw('alter table usage_log disable trigger usage_log_fence'));
  const fence = async () => void (await db.knex.raw('alter table usage_log enable trigger usage_log_fence'));
  if (process.argv.includes('--encoding'))
    return [
      {
        name: 'multi-row insert, 36 bind parameters a row (knex)',
        set: none,
        reset: none,
        write: async (d, rows) => void (await d.knex('usage_log').insert(rows.map(usageRowToColumns)).onConflict('row_id').ignore()),
      },
      { name: 'one JSON parameter a group (json_to_recordset)', set: none, reset: none, write: (d, rows) => insertUsageRows(d.knex, rows) },
    ];
  const list: Variant[] = [
    { name: 'before: rollup trigger per statement (migration 043 undone)', set: inTransaction(down), reset: inTransaction(up) },
    { name: 'as migrated: fence trigger, rollup by the job', set: none, reset: none },
    { name: 'without the fence trigger', set: noFence, reset: fence },
  ];
  if (process.argv.includes('--triggers')) return list;
  const all = await indexes(db);
  for (const ix of all)
    list.push({
      name: `as migrated, without ${ix.name}`,
      set: async () => void (await db.knex.raw(`drop index ${ix.name}`)),
      reset: async () => void (await db.knex.raw(ix.def)),
    });
  list.push({
    name: 'as migrated, without every secondary index (primary key and row_id only)',
    set: async () => {
      for (const ix of all) await db.knex.raw(`drop index ${ix.name}`);
    },
    reset: async () => {
      for (const ix of all) await db.knex.raw(ix.def);
    },
  });
  return list;
}

/**
 * CPU time in µs spent so far by this process and, on PostgreSQL, by the backends of the bench's database (its own:
 * the database of BENCH_DATABASE_URL should serve nothing else while this runs).
 */
async function cpuNow(db: Database): Promise<number> {
  const own = process.cpuUsage();
  if (db.kind !== 'postgres') return own.user + own.system;
  const pids = (await db.knex.raw(`select pid from pg_stat_activity where datname = current_database()`)).rows as Array<{ pid: number }>;
  // schedstat's first field: nanoseconds on a CPU (the clock ticks of /proc/PID/stat are too coarse here)
  const server = pids.reduce((n, { pid }) => n + Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000, 0);
  return own.user + own.system + server;
}

/**
 * CPU µs per row for `rows` rows written in groups of `group` through the usage log's write path, and with the rollup
 * job's runs that add them to usage_daily (where the job builds it).
 */
async function perRow(db: Database, v: Variant, group: number, rows: number, offset: number): Promise<[number, number]> {
  const log = new KnexUsageLog(db.knex, { maxBatch: Number.MAX_SAFE_INTEGER, flushMs: 3_600_000, rollupMs: 0 });
  const batches = Array.from({ length: rows / group }, (_, g) => Array.from({ length: group }, (__, i) => row(offset + g * group + i)));
  const before = await cpuNow(db);
  for (const batch of batches) {
    if (v.write)
      await v.write(
        db,
        batch.map((r) => ({ ...r, rowId: randomUUID(), createdAt: new Date() })),
      );
    else {
      for (const r of batch) log.record(r);
      await log.flush();
    }
  }
  const written = await cpuNow(db);
  log.stop();
  if (!(await db.knex.schema.hasTable('usage_rollup_state'))) return [(written - before) / rows, (written - before) / rows];
  const job = await cpuNow(db);
  while ((await rollUpUsage(db.knex)) > 0);
  return [(written - before) / rows, ((await cpuNow(db)) - job + written - before) / rows];
}

async function measure(label: string, db: Database): Promise<string[]> {
  await db.knex.raw(
    `insert into usage_log (row_id, created_at, request_id, account_id, key_id, model, format, status, http_status,
       input_tokens, output_tokens, latency_ms, provider, attempts, credits)
     select 'seed_' || g, now() - (${SEED} - g) * interval '1 second', 'req_' || g, 'acct_' || (g % 2000) % 200,
       'key_' || (g % 2000), 'model-' || (g % 8), 'openai-chat', 'ok', 200, g % 1000, g % 300, 100 + g % 900,
       'provider-' || (g % 3), 1, 0.01
     from generate_series(1, ${SEED}) g`,
  );
  while ((await rollUpUsage(db.knex, { maxRows: SEED })) > 0);
  await db.knex.raw('analyze usage_log');
  const list = await variants(db);
  const times = new Map<string, number[]>();
  let offset = 0;
  for (let round = 0; round < ROUNDS; round++)
    for (const v of list) {
      await v.set(db);
      for (const group of GROUPS) {
        const [insert, withJob] = await perRow(db, v, group, rowsOf(group), offset);
        offset += rowsOf(group);
        for (const [key, us] of [
          [`${v.name}|${group}`, insert],
          [`${v.name}|${group}|job`, withJob],
        ] as const)
          times.set(key, [...(times.get(key) ?? []), us]);
      }
      await v.reset(db);
      console.error(`${label} round ${round + 1}: ${v.name}`);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const cell = (v: Variant, g: number) => {
    const all = times.get(`${v.name}|${g}`)!;
    const [insert, withJob] = [median(all), median(times.get(`${v.name}|${g}|job`)!)];
    // the rounds' spread: the machine is shared, so a difference inside it says little
    const spread = `${Math.min(...all).toFixed(0)}–${Math.max(...all).toFixed(0)}`;
    return withJob - insert >= 0.5 ? `${insert.toFixed(0)} [${spread}] (+ job: ${withJob.toFixed(0)})` : `${insert.toFixed(0)} [${spread}]`;
  };
  const table = list.map((v) => `| ${label} | ${v.name} | ${GROUPS.map((g) => cell(v, g)).join(' | ')} |`);
  console.error(table.join('\n'));
  return table;
}

async function main() {
  const lines: string[] = [];
  const embedded = await openDatabase({});
  try {
    lines.push(...(await measure('PGlite', embedded)));
  } finally {
    await embedded.close();
  }
  if (url) {
    const schema = `bench_usage_insert_${randomUUID().slice(0, 8)}`;
    const pg = await openDatabase({ databaseUrl: url, schema, poolMax: 2 });
    try {
      lines.push(...(await measure('PostgreSQL', pg)));
    } finally {
      await pg.knex.raw(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
      await pg.close();
    }
  }
  console.log(
    [
      `Usage row insert cost, CPU µs per row (the gateway process, plus the PostgreSQL backend) (median of ${ROUNDS} interleaved rounds; ${SEED.toLocaleString('en')} rows seeded; ${KEYS} keys;`,
      `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown'}, shared with other work).`,
      '',
      `| store | table | ${GROUPS.map((g) => `group of ${g}`).join(' | ')} |`,
      `|---|---|${GROUPS.map(() => '---|').join('')}`,
      ...lines,
    ].join('\n'),
  );
}

void main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
