import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '@gateway/store-postgres';
import type { GatewayEnv } from './gateway-env';
import type { Logger } from '@gateway/observability';
import { databaseStartupError } from './startup-checks';

/** Opens the store, saying what it does: the first start of the embedded store takes a while. */
export async function openStore(env: GatewayEnv, logger: Logger): Promise<Database> {
  const started = Date.now();
  const dataDir = env.inMemoryDatabase ? undefined : env.dataDir;
  if (env.databaseUrl) logger.info('opening PostgreSQL and applying migrations', { schema: env.databaseSchema });
  else if (dataDir && !existsSync(path.resolve(dataDir, 'pglite')))
    logger.info('first start: creating the embedded store (this takes a while, later starts are quick)', {
      dir: path.resolve(dataDir, 'pglite'),
    });
  else logger.info('opening the embedded store and applying migrations', { inMemory: !dataDir });
  try {
    const db = await openDatabase({
      databaseUrl: env.databaseUrl,
      dataDir,
      schema: env.databaseSchema,
      sealSecret: env.secret,
      memoryImage: env.memoryImage,
    });
    logger.info('store ready', { store: db.kind, ms: Date.now() - started });
    return db;
  } catch (e) {
    throw env.databaseUrl ? databaseStartupError(env.databaseUrl, e) : e;
  }
}

/** Names this process among the instances on one database (content probes). */
export function instanceId(): string {
  return `${os.hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
}
