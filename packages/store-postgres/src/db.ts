import knex, { type Knex } from 'knex';
import { fork } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type * as PgliteModule from '@electric-sql/pglite';
import type ClientPgLite from 'knex-pglite';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { migrationSource, migrationSourceWith, type MigrationContext } from './migrations';
import { PGLITE_CONF } from './pglite-conf';
import { PgliteThread, type EmbeddedSession } from './pglite-thread-client';
import type { EmbeddedPlace } from './pglite-thread.protocol';
import { keepTreePrivate } from './private-tree';

// The embedded store's modules are loaded by its first open (its thread loads PGlite itself): a gateway on PostgreSQL
// never holds them (bench/results/memory.md).
/* eslint-disable @typescript-eslint/no-require-imports -- deliberately lazy: see above */
const pgliteModule = () => require('@electric-sql/pglite') as typeof PgliteModule;
const knexPgliteClient = () => require('knex-pglite') as typeof ClientPgLite;
/* eslint-enable @typescript-eslint/no-require-imports */

export interface DatabaseOptions {
  /** postgres://... ; when absent the embedded PGlite is used */
  databaseUrl?: string;
  /** where PGlite persists; when absent (and no URL) the database lives in memory */
  dataDir?: string;
  /** a Postgres schema to use (and create); tests use one each so runs never collide */
  schema?: string;
  poolMax?: number;
  /** GATEWAY_SECRET: a migration seals provider credentials stored unencrypted with it (032) */
  sealSecret?: string;
  /**
   * Tests: a dump of a migrated store (PGlite's dumpDataDir) that an in-memory database starts from instead of initdb;
   * the migrations it lacks still run. Ignored with a dataDir or a databaseUrl.
   */
  memoryImage?: string;
}

export interface Database {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  schema?: string;
  /**
   * LISTEN on a channel: PostgreSQL on a connection of its own (held until the returned stop), PGlite through its own
   * listen (in its thread). `onNotify` gets each payload, after the notifying transaction committed.
   */
  listen(channel: string, onNotify: (payload: string) => void, onLost?: (e: Error) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(opts.schema)) throw new Error(`Invalid schema name ${opts.schema}`);
  let db: Knex;
  let kind: Database['kind'];
  let lock: DataDirLock | undefined;
  let pglite: EmbeddedSession | undefined;
  if (opts.databaseUrl) {
    kind = 'postgres';
    db = knex({
      client: 'pg',
      connection: opts.databaseUrl,
      pool: { min: 0, max: opts.poolMax ?? 10 },
      searchPath: opts.schema ? [opts.schema] : undefined,
      log: { warn: warnUnlessConnectionNoise },
    });
  } else {
    kind = 'pglite';
    let dir: string | undefined;
    if (opts.dataDir) {
      // one writer per directory: a second process stops here, naming the holder
      lock = acquireDataDirLock(opts.dataDir);
      dir = path.resolve(opts.dataDir, 'pglite');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // initdb grows the process's native heap by ~70 MB that it never gives back: a child process does it and exits
      if (!existsSync(path.join(dir, 'PG_VERSION'))) {
        try {
          await prepareInChild(dir, opts.schema);
        } catch (e) {
          lock.release();
          throw e;
        }
      }
    }
    [db, pglite] = openPglite(dir ? { dir } : { image: opts.memoryImage }, opts.schema);
  }
  let migrated = 0;
  const migrate = async () => {
    migrated = await applyMigrations(db, opts.schema, { sealSecret: opts.sealSecret });
  };
  let stopSweep: (() => void) | undefined;
  const close = async () => {
    try {
      await db.destroy();
    } finally {
      stopSweep?.();
      lock?.release();
    }
  };
  try {
    await (kind === 'postgres' ? withMigrationLock(db, opts.schema, migrate) : migrate());
    // WASM memory only grows: the migrations leave PGlite's heap larger than a running gateway needs. A fresh
    // thread on the same directory starts small (docs/benchmarks.md, memory): the old thread's end returned its heap.
    if (kind === 'pglite' && opts.dataDir && migrated > 0) {
      await db.destroy();
      [db, pglite] = openPglite({ dir: path.resolve(opts.dataDir, 'pglite') }, opts.schema);
      await db.raw('select 1');
    }
    // PGlite sets its own files' modes (0666): owner-only at open, every minute, and at close
    if (kind === 'pglite' && opts.dataDir) stopSweep = keepTreePrivate(path.resolve(opts.dataDir, 'pglite'));
  } catch (e) {
    await close().catch(() => undefined); // the open's own error is the one to report
    throw e;
  }
  const listen = (channel: string, onNotify: (payload: string) => void, onLost?: (e: Error) => void) =>
    pglite ? pglite.listen(channel, onNotify) : listenOnPostgres(db, channel, onNotify, onLost);
  return { knex: db, kind, schema: opts.schema, listen, close };
}

async function applyMigrations(db: Knex, schema: string | undefined, ctx: MigrationContext = {}): Promise<number> {
  if (schema) await db.raw(`create schema if not exists "${schema}"`);
  const [, applied] = (await db.migrate.latest({ migrationSource: migrationSourceWith(ctx), schemaName: schema })) as [number, string[]];
  return applied.length;
}

/** What the child process of prepareInChild runs (pglite-prepare.ts): initdb and the migrations, then close. */
export async function prepareEmbeddedStore(dir: string, schema: string | undefined): Promise<void> {
  const db = pgliteKnex(new (pgliteModule().PGlite)(dir, { postgresqlconf: PGLITE_CONF }), schema); // this child process does nothing else, so no thread
  try {
    await applyMigrations(db, schema);
  } finally {
    await db.destroy();
  }
}

/** Runs prepareEmbeddedStore in a node child process (the bundle's pglite-prepare.js, or the source under tsx). */
function prepareInChild(dir: string, schema: string | undefined): Promise<void> {
  const ext = path.extname(__filename);
  const entry = path.join(__dirname, `pglite-prepare${ext}`);
  const child = fork(entry, [dir, schema ?? ''], {
    execArgv: ext === '.ts' ? ['--import', 'tsx'] : [],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`creating the embedded store in ${dir} failed: ${err.trim() || `exit code ${code}`}`)),
    );
  });
}

/** A pooled connection taken for good: LISTEN lasts as long as its session. */
async function listenOnPostgres(
  db: Knex,
  channel: string,
  onNotify: (payload: string) => void,
  onLost?: (e: Error) => void,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  const conn = (await db.client.acquireConnection()) as {
    query(sql: string): Promise<unknown>;
    on(event: 'notification', cb: (m: { channel: string; payload?: string }) => void): void;
    on(event: 'error', cb: (e: Error) => void): void;
  };
  let stopped = false;
  conn.on('notification', (m) => {
    if (m.channel === channel) onNotify(m.payload ?? '');
  });
  // a dropped session ends the LISTEN: say so once, so the caller listens again on a fresh connection
  conn.on('error', (e) => {
    if (stopped) return;
    stopped = true;
    void db.client.releaseConnection(conn);
    onLost?.(e);
  });
  try {
    await conn.query(`listen ${channel}`);
  } catch (e) {
    await db.client.releaseConnection(conn);
    throw e;
  }
  return async () => {
    if (stopped) return;
    stopped = true;
    await conn.query(`unlisten ${channel}`).catch(() => undefined); // fails only on a broken connection, released next
    await db.client.releaseConnection(conn);
  };
}

/**
 * knex on PGlite in a worker thread of its own (pglite-thread-client.ts), so queries, the usage log's batch inserts
 * included, never hold up requests (docs/adr/0004); knex-pglite takes the thread's proxy as its PGlite.
 */
function openPglite(place: EmbeddedPlace, schema: string | undefined): [Knex, EmbeddedSession] {
  const pglite = new PgliteThread(place);
  return [pgliteKnex(pglite, schema), pglite];
}

function pgliteKnex(pglite: EmbeddedSession, schema: string | undefined): Knex {
  return knex({
    client: knexPgliteClient() as unknown as typeof knex.Client,
    connection: { pglite } as never,
    searchPath: schema ? [schema] : undefined,
  });
}

/**
 * Instances starting together on one database would race to create the schema and knex's own tables
 * ("relation knex_migrations already exists"): one session-level advisory lock per schema lets one migrate
 * while the others wait, then find nothing left to do.
 */
async function withMigrationLock(db: Knex, schema: string | undefined, fn: () => Promise<void>): Promise<void> {
  const key = `gateway-migrations:${schema ?? 'public'}`;
  const conn = await db.client.acquireConnection();
  try {
    await db.raw('select pg_advisory_lock(hashtext(?))', [key]).connection(conn);
    await fn();
  } finally {
    // ignored: it fails only on a broken connection, whose session (and so its lock) has ended
    await db
      .raw('select pg_advisory_unlock(hashtext(?))', [key])
      .connection(conn)
      .catch(() => undefined);
    await db.client.releaseConnection(conn);
  }
}

/** True when every migration has been applied. */
export async function migrationsApplied(db: Knex, schema?: string): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource, schemaName: schema })) as [unknown[], unknown[]];
  return pending.length === 0;
}

/**
 * knex warns once per failed connection, with a stack ("Acquire connection error: …", "Connection Error: …"): during
 * an outage that is a line per query. The server's database watcher logs the outage once when it starts and once
 * when it ends (database-watch.ts), so these are dropped; knex's other warnings go on to the console.
 */
export function warnUnlessConnectionNoise(message: unknown): void {
  if (/^(Acquire connection error|Connection Error):/.test(String(message))) return;
  console.warn(message);
}
