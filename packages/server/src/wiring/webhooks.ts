import os from 'node:os';
import {
  DEFAULT_BUDGET_ALERT_THRESHOLDS,
  DEFAULT_KEY_EXPIRY_ALERT_HOURS,
  newId,
  sweepAccountAlerts,
  TaskWatch,
  WebhookDispatcher,
  WebhookEndpoints,
  workerLoop,
  type VideoTask,
  type VideoTaskService,
} from '@gateway/core';
import { taskChangeFeed, type Database } from '@gateway/store-postgres';
import { encodeTask } from '@gateway/wire-video-tasks';
import { httpWebhookSender } from '@gateway/wire-webhooks';
import type { AreaWiring, WiringContext } from './context';
import { readEnv } from '../env.schema';
import { webhookEnvOf } from './webhooks-env';

export interface WebhookWiringDeps {
  /** the video use case: live status reads tasks through it (ownership included) */
  videos: VideoTaskService;
  database: Pick<Database, 'listen' | 'kind'>;
  /** told of every task change notice (the video worker wakes on it) */
  onTaskChange?: () => void;
}

/**
 * Webhooks and live status: the endpoint service (account API and admin API), the delivery loop (one round every
 * WEBHOOK_WORKER_INTERVAL_MS, on every instance; SKIP LOCKED shares the work), and the change feed behind
 * `GET …/{id}/events`.
 */
export function wireWebhooks(ctx: WiringContext, deps: WebhookWiringDeps) {
  const w = ctx.env.webhooks ?? webhookEnvOf(readEnv({}), {});
  const store = ctx.stores.webhooks;
  const rule = { allowedHosts: w.allowedHosts };
  // endpoint changes and secret re-issues are audited in their own transaction (docs/admin.md, "Audit")
  const webhooks = new WebhookEndpoints({ repo: store, urlRule: rule, audit: ctx.stores.audit });
  const dispatcher = new WebhookDispatcher(
    {
      outbox: store,
      sender: httpWebhookSender(rule),
      // the callback_url body is the task-read object, as GET /v1/contents/generations/tasks/{id} answers it
      renderCallback: (task: VideoTask) => encodeTask(task, ctx.env.publicBaseUrl),
      retry: w.retry,
      log: (level, message, fields) => ctx.logger.log(level, message, fields),
    },
    {
      owner: `${os.hostname()}:${process.pid}:${newId('', 4)}`,
      // deliveries in flight on this instance; a round never waits for them (docs/webhooks.md, fairness)
      batch: 32,
      perAccount: w.perAccount ?? 4,
      timeoutMs: w.timeoutMs,
      // a claim outlives the POST's time limit, so no other instance takes it while it is in flight
      leaseMs: w.timeoutMs * 2 + 5000,
    },
  );
  const loop = workerLoop(() => dispatcher.pump(), w.intervalMs, ctx.logger, { what: 'webhook delivery rounds' });
  // budget and expiry alerts: every instance sweeps; the store sends each alert once (docs/webhooks.md)
  const alertOpts = w.alerts ?? {
    budgetThresholds: [...DEFAULT_BUDGET_ALERT_THRESHOLDS],
    expiryLeadMs: DEFAULT_KEY_EXPIRY_ALERT_HOURS * 3_600_000,
    intervalMs: 60_000,
  };
  const alertStore = ctx.stores.alerts;
  const alerts = workerLoop(() => sweepAccountAlerts(alertStore, alertOpts, ctx.clock()), alertOpts.intervalMs, ctx.logger, {
    what: 'budget and expiry alert sweeps',
  });
  const feed = taskChangeFeed(deps.database, {
    onAny: deps.onTaskChange,
    onDown: (e) => ctx.logger.warn('task change feed: LISTEN failed, live status polls until it works', { error: e.message }),
    onUp: () => ctx.logger.info('task change feed: LISTEN works again, live status follows notifications'),
  });
  // PGlite's listen works in-process, in the process that owns it; a missed notice on Postgres (a reconnect) costs
  // one poll interval.
  const taskEvents = new TaskWatch({
    videos: deps.videos,
    feed,
    pollMs: w.livePollMs ?? (deps.database.kind === 'pglite' ? 1000 : 5000),
    limits: w.liveLimits,
    // a stream ends once its key is revoked or expired, within the key cache's TTL (one read per key per check)
    keyAlive: async (keyId) => {
      const key = await ctx.stores.keys.getKey(keyId);
      return !!key && !key.revokedAt && !(key.expiresAt && key.expiresAt.getTime() <= ctx.clock().getTime());
    },
    keyCheckMs: Math.max(ctx.env.keyCacheTtlMs || 2000, 250),
  });
  return {
    services: { webhooks, taskEvents },
    webhooks,
    async start() {
      await feed.start();
      loop.start();
      alerts.start();
    },
    async stop() {
      await Promise.all([loop.stop(), alerts.stop()]);
      await dispatcher.idle();
      await feed.close();
    },
  } satisfies AreaWiring & { webhooks: WebhookEndpoints };
}
