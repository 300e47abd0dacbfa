import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import winston from 'winston';
import { bootstrapConfigKeys } from '../../../src/bootstrap';
import { buildConfig, type GatewayConfigFile } from '../../../src/config';
import { createGateway, type Gateway, type GatewayEnv } from '../../../src/gateway';
import { inMemoryGatewayEnv } from '../../support/test-gateway';

export interface CapturingGateway extends Gateway {
  url: string;
  /** every line the gateway logged at debug level */
  log(): string;
  /** every row of every table of its database, as JSON text */
  storedText(): Promise<string>;
  stop(): Promise<void>;
}

/** A started gateway (PGlite in memory) whose debug log is kept in memory, for tests that look for secrets. */
export async function startCapturingGateway(file: GatewayConfigFile, env: Partial<GatewayEnv> = {}): Promise<CapturingGateway> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-capture-'));
  const sink = new PassThrough();
  const lines: string[] = [];
  sink.on('data', (c: Buffer) => lines.push(c.toString('utf8')));
  const logger = winston.createLogger({
    level: 'debug',
    format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Stream({ stream: sink })],
  });
  const gw = await createGateway(
    await inMemoryGatewayEnv({
      dataDir,
      ...env,
    }),
    { config: buildConfig('(test)', file), logger },
  );
  await bootstrapConfigKeys(gw.stores, gw.config);
  const server = await gw.listen(0, '127.0.0.1');
  return Object.assign(gw, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log: () => lines.join(''),
    async storedText() {
      await gw.usage.flush();
      const tables = await gw.db.knex.raw<{ rows: Array<{ table_name: string }> }>(
        "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
      );
      const dump: Record<string, unknown> = {};
      for (const { table_name } of tables.rows) dump[table_name] = await gw.db.knex(table_name).select('*');
      return JSON.stringify(dump);
    },
    async stop() {
      await gw.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
