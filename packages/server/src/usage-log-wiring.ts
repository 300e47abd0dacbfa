import path from 'node:path';
import type { Knex } from 'knex';
import client from 'prom-client';
import { KnexUsageLog } from '@gateway/store-postgres';
import type { Logger } from './logger';

/** How many request ids a failed write's log line names (the count is always complete). */
const IDS_IN_LOG = 20;

/**
 * The usage log, spooled under DATA_DIR/usage-spool (docs/reliability.md, "Spend is never lost"); not spooled for a
 * database kept in memory (tests), which nothing could be replayed into. A batch the
 * database refused is logged once at error with its row count and request ids (retries are silent), its recovery
 * once at warn; segments whose owner is provably gone (another replica's live ones never) are replayed now and every 30 s.
 */
export function openUsageLog(knex: Knex, dataDir: string | null, logger: Logger): KnexUsageLog {
  const usage = new KnexUsageLog(knex, {
    spoolDir: dataDir ? path.join(dataDir, 'usage-spool') : undefined,
    onError: (e, rows) =>
      logger.error('usage rows not written: kept in the spool, retried until the database takes them', {
        error: (e as Error).message,
        rows: rows.length,
        requestIds: rows.slice(0, IDS_IN_LOG).map((r) => r.requestId),
      }),
    onRecovered: (rows) => logger.warn('usage rows written again after a failure', { rows }),
    onSpoolError: (e) => logger.error('usage spool not writable: rows wait in memory only until it is', { error: (e as Error).message }),
  });
  usage.startRecovery(30000, (e) => logger.warn('usage spool replay failed', { error: (e as Error).message }));
  return usage;
}

/** gateway_usage_rows_pending: rows answered but not yet in the database (buffered, or waiting in the spool). */
export function usagePendingGauge(usage: KnexUsageLog): (registry: client.Registry) => void {
  return (registry) =>
    new client.Gauge({
      name: 'gateway_usage_rows_pending',
      help: 'Usage rows not yet written to the database (buffered, or waiting in the spool after a failed write)',
      registers: [registry],
      collect() {
        this.set(usage.pendingRows());
      },
    });
}
