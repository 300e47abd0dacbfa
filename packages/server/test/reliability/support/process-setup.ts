import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { openDatabase, type Database } from '@gateway/store-postgres';
import type { GatewayConfigFile } from '../../../src/config';
import { testConfigFile } from '../../support/test-gateway';

/**
 * What gateway processes of a crash or multi-instance run share: a DATA_DIR on disk, a config file, and a store
 * (PGlite under DATA_DIR, or a fresh schema of the Postgres in TEST_DATABASE_URL).
 */
export interface ProcessSetup {
  dir: string;
  env: Record<string, string>;
  store: 'pglite' | 'postgres';
  /** the store, opened from the test (PGlite only once no gateway process holds it) */
  openStore(): Promise<Database>;
  cleanup(): Promise<void>;
}

/** The simulator slow enough to be caught mid-work: queued, running, a real ffmpeg render, streams of many chunks. */
export function reliabilityConfig(): GatewayConfigFile {
  const base = testConfigFile();
  return {
    ...base,
    providers: [{ id: 'sim', type: 'simulator', options: { queuedMs: 300, videoLatencyMs: 500, chunkDelayMs: 400 } }],
    // priced, so double charges would show in the credit ledger
    models: base.models.map((m) =>
      m.id === 'sim-video-2.0'
        ? { ...m, pricing: { perVideoSecond: { '480p': 0.01, '720p': 0.02, '1080p': 0.04, '4k': 0.08 } } }
        : m.id === 'sim-chat'
          ? { ...m, pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 2 } }
          : m,
    ),
    limits: { maxActiveTasksPerAccount: 10_000 },
  };
}

export async function processSetup(opts: { postgres: boolean; workerEnv?: Record<string, string> }): Promise<ProcessSetup> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-rel-'));
  // Made up front so the render and delivery watchers can watch them from the start.
  mkdirSync(path.join(dir, 'simulator', 'videos'), { recursive: true });
  mkdirSync(path.join(dir, 'content', 'videos'), { recursive: true });
  writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify(reliabilityConfig()));
  const url = opts.postgres ? process.env.TEST_DATABASE_URL : undefined;
  const schema = url ? `rel_${randomBytes(6).toString('hex')}` : undefined;
  const env: Record<string, string> = {
    GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
    DATA_DIR: dir,
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: '3000',
    VIDEO_WORKER_INTERVAL_MS: '50',
    VIDEO_WORKER_LEASE_MS: '1500',
    VIDEO_POLL_MIN_MS: '100',
    VIDEO_POLL_MAX_MS: '300',
    ...(url && schema ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : {}),
    ...opts.workerEnv,
  };
  const openStore = () => openDatabase(url ? { databaseUrl: url, schema } : { dataDir: dir });
  return {
    dir,
    env,
    store: url ? 'postgres' : 'pglite',
    openStore,
    async cleanup() {
      if (url && schema) {
        const admin = knex({ client: 'pg', connection: url });
        await admin.raw(`drop schema if exists "${schema}" cascade`);
        await admin.destroy();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
