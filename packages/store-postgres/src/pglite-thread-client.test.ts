import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type Database } from './db';
import { PgliteThread, spawnPgliteThread, type EmbeddedSession } from './pglite-thread-client';

/** What the thread must return exactly as PGlite on the event loop does: the types every store reads. */
const TABLE = 'create table t (id int primary key, b bytea, d timestamptz, j jsonb, a text[], n bigint, x numeric, s text, z text)';
const ROW = [
  1,
  Buffer.from([0, 1, 254, 255]),
  new Date('2026-01-02T03:04:05.678Z'),
  JSON.stringify({ k: [1, 'v'] }),
  ['p', 'q'],
  '9007199254740993',
  '1.5',
  'é',
  null,
];

async function roundTrip(s: EmbeddedSession) {
  await s.waitReady;
  await s.query(TABLE);
  await s.query('insert into t values ($1, $2, $3, $4, $5, $6, $7, $8, $9)', ROW);
  const dup = await s.query('insert into t (id) values (1)').then(
    () => undefined,
    (e: unknown) => e,
  );
  const selected = (await s.query('select * from t')) as { rows: Array<Record<string, unknown>> };
  return { dup, selected };
}

const typesOf = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? 'null' : `${typeof v}:${(v as object).constructor.name}`]));

describe('PgliteThread: PGlite in a worker thread, seen as PGlite', () => {
  it('answers with the same values, types and database errors as PGlite on the event loop', async () => {
    const here = new PGlite();
    const thread = new PgliteThread({});
    try {
      const [a, b] = [await roundTrip(here), await roundTrip(thread)];
      expect(b.selected).toEqual(a.selected);
      expect(typesOf(b.selected.rows[0]!)).toEqual(typesOf(a.selected.rows[0]!));
      expect(typesOf(b.selected.rows[0]!)).toMatchObject({
        b: 'object:Uint8Array',
        d: 'object:Date',
        n: 'bigint:BigInt',
        a: 'object:Array',
      });
      expect(b.selected.rows[0]!.b).toEqual(new Uint8Array([0, 1, 254, 255]));
      const fields = ['name', 'message', 'code', 'detail', 'constraint', 'table', 'schema', 'severity', 'routine'] as const;
      const pick = (e: unknown) => Object.fromEntries(fields.map((f) => [f, (e as Record<string, unknown>)[f]]));
      expect(b.dup).toBeInstanceOf(Error);
      expect(pick(b.dup)).toEqual(pick(a.dup));
      expect(pick(b.dup)).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't', detail: 'Key (id)=(1) already exists.' });
    } finally {
      await here.close();
      await thread.close();
    }
    // two embedded databases open side by side: each boots for seconds on a loaded machine
  }, 90_000);

  describe('behind knex (openDatabase on the embedded store)', () => {
    let db: Database;
    beforeAll(async () => {
      db = await openDatabase({});
      await db.knex.raw('create table kv (k text primary key, v int)');
    });
    afterAll(() => db.close());

    it('keeps a transaction on its one session: a rollback undoes it, a commit keeps it', async () => {
      await expect(
        db.knex.transaction(async (trx) => {
          await trx('kv').insert({ k: 'rolled back', v: 1 });
          await trx('kv').insert({ k: 'rolled back', v: 2 }); // 23505 ends the transaction
        }),
      ).rejects.toMatchObject({ code: '23505' });
      await db.knex.transaction((trx) => trx('kv').insert({ k: 'kept', v: 3 }));
      expect(await db.knex('kv').select('k', 'v')).toEqual([{ k: 'kept', v: 3 }]);
    });

    it('forwards LISTEN and its notifications, and stops forwarding when the subscription stops', async () => {
      const seen: string[] = [];
      const stop = await db.listen('feed', (p) => seen.push(p));
      await db.knex.raw("notify feed, 'one'");
      // PGlite calls listeners before the NOTIFY's answer, and the thread posts in that order
      expect(seen).toEqual(['one']);
      await stop();
      await db.knex.raw("notify feed, 'two'");
      const after: string[] = [];
      const again = await db.listen('feed', (p) => after.push(p));
      await db.knex.raw("notify feed, 'three'");
      await again();
      expect({ seen, after }).toEqual({ seen: ['one'], after: ['three'] });
    });
  });

  it('close() closes PGlite in its thread and ends the thread; later calls fail', async () => {
    let worker!: Worker;
    const thread = new PgliteThread({}, (place) => (worker = spawnPgliteThread(place)));
    await thread.query('select 1');
    const exited = once(worker, 'exit');
    await thread.close();
    await exited;
    await expect(thread.query('select 1')).rejects.toThrow("the embedded database's thread is closed");
  });

  /** A stand-in thread that says it is ready, then dies as told by the first message it gets. */
  const dyingThread = (how: 'exit' | 'throw') => () =>
    new Worker(
      `const { parentPort } = require('node:worker_threads');
       parentPort.postMessage({ type: 'ready' });
       parentPort.on('message', () => { ${how === 'exit' ? 'process.exit(3)' : "throw new Error('wasm trap')"} });`,
      { eval: true },
    );

  it.each([
    ['exits', 'exit', "the embedded database's thread has ended (exit code 3)"],
    ['throws', 'throw', "the embedded database's thread failed: wasm trap"],
  ] as const)('a thread that %s fails the waiting query and every later one with the reason', async (_, how, reason) => {
    const thread = new PgliteThread({}, dyingThread(how));
    await thread.waitReady;
    await expect(thread.query('select 1')).rejects.toThrow(reason);
    await expect(thread.query('select 2')).rejects.toThrow(reason);
    await expect(thread.listen('feed', () => undefined)).rejects.toThrow(reason);
    await thread.close();
  });

  it('a thread whose PGlite cannot open fails waitReady with the database error', async () => {
    const thread = new PgliteThread({ dir: '/proc/pglite-cannot-be-here' });
    await expect(thread.waitReady).rejects.toThrow();
    await thread.close().catch(() => undefined);
  });
});
