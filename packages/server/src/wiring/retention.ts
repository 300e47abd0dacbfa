import type { Files } from '@gateway/core';
import { enforceRetention } from '@gateway/store-postgres';
import type { AreaWiring, WiringContext } from './context';

const EVERY_MS = 3_600_000;

/**
 * The retention job: at start and hourly, raw usage rows older than USAGE_RETENTION_DAYS (default 0: kept) and
 * finished webhook deliveries (with their attempts) older than WEBHOOK_DELIVERY_RETENTION_DAYS (default 30) are
 * deleted, in short batches, and so are expired files (their rows and bytes). Every instance may run it; deleting is
 * idempotent. The credit ledger is never deleted.
 */
export function wireRetention(ctx: WiringContext, files?: Pick<Files, 'sweepExpired'>, now: () => Date = () => new Date()): AreaWiring {
  const policy = ctx.env.retention ?? { usageDays: 0, webhookDeliveryDays: 30 };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= (async () => {
      const n = await enforceRetention(ctx.knex, policy, now());
      if (n.usageRows || n.webhookDeliveries) ctx.logger.info('retention: old rows deleted', { ...n, ...policy });
      const expiredFiles = (await files?.sweepExpired()) ?? 0;
      if (expiredFiles) ctx.logger.info('retention: expired files deleted', { files: expiredFiles });
    })()
      .catch((e: Error) => void ctx.logger.warn('retention job failed; retried within the hour', { error: e.message }))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    start: () => {
      if (timer || !(policy.usageDays > 0 || policy.webhookDeliveryDays > 0 || files)) return;
      timer = setInterval(() => void run(), EVERY_MS);
      timer.unref();
      void run();
    },
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
