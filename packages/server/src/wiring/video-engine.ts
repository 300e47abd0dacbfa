import os from 'node:os';
import path from 'node:path';
import {
  auditTaskBooks,
  DeploymentSelector,
  newId,
  VideoTasks,
  VideoWorker,
  type ContentStore,
  type VideoProviderLookup,
  type VideoWorkerOptions,
} from '@gateway/core';
import { FileContentStore } from '@gateway/store-files';
import { KnexQuotaRepository, KnexTaskRepository, KnexWebhookStore } from '@gateway/store-postgres';
import type { WiringContext } from './context';
import { wholeNumberFromEnv } from '../env-number';
import { workerLoop } from './worker-loop';
import { ffmpegVideoProbe } from './ffmpeg-video-probe';

export interface VideoEngineOptions extends Partial<Omit<VideoWorkerOptions, 'owner'>> {
  /** pause between claim rounds */
  intervalMs?: number;
}

export interface VideoEngine {
  /** what the video wire formats call */
  service: VideoTasks;
  worker: VideoWorker;
  content: ContentStore;
  /** starts the claim loop (once per engine) */
  start(): void;
  /** stops claiming, aborts steps in flight and hands their tasks back */
  stop(): Promise<void>;
}

/** Worker knobs from the environment (docs/video-engine.md); unset ones keep the worker's defaults. */
export function videoEngineOptionsFromEnv(e: NodeJS.ProcessEnv = process.env): VideoEngineOptions {
  const num = (name: string) => wholeNumberFromEnv(e, name, 1);
  const opts: VideoEngineOptions = {
    intervalMs: num('VIDEO_WORKER_INTERVAL_MS'),
    concurrency: num('VIDEO_WORKER_CONCURRENCY'),
    leaseMs: num('VIDEO_WORKER_LEASE_MS'),
    pollMinMs: num('VIDEO_POLL_MIN_MS'),
    pollMaxMs: num('VIDEO_POLL_MAX_MS'),
  };
  return Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
}

/** What the engine needs of the wiring context (tests pass their own providers). */
export type VideoEngineContext = Pick<WiringContext, 'env' | 'config' | 'knex' | 'usage' | 'logger'> & {
  providers: VideoProviderLookup;
  billing?: WiringContext['billing'];
  /** the gateway's content store; DATA_DIR/content when absent */
  content?: ContentStore;
  clock?: WiringContext['clock'];
  webhookSealKey?: string;
  webhookPreviousSealKey?: string;
};

/** The video use case and its worker over the gateway's store, content directory and providers. */
export function buildVideoEngine(ctx: VideoEngineContext, options: VideoEngineOptions = videoEngineOptionsFromEnv()): VideoEngine {
  const { intervalMs = 100, ...workerOptions } = options;
  const tasks = new KnexTaskRepository(ctx.knex, { now: ctx.clock });
  const content = ctx.content ?? new FileContentStore(path.join(ctx.env.dataDir, 'content'));
  const { catalogue, limits } = ctx.config;
  const service = new VideoTasks({
    catalogue,
    tasks,
    content,
    usage: ctx.usage,
    providers: ctx.providers,
    limits,
    billing: ctx.billing,
    selector: new DeploymentSelector(),
    webhookUrlRule: { allowedHosts: ctx.env.webhooks?.allowedHosts ?? [] },
    callbackSecret: (accountId) =>
      new KnexWebhookStore(ctx.knex, { sealKey: ctx.webhookSealKey, previousSealKey: ctx.webhookPreviousSealKey }).accountSecret(accountId),
  });
  const worker = new VideoWorker(
    {
      tasks,
      content,
      catalogue,
      providers: ctx.providers,
      billing: ctx.billing,
      // measures a delivered video whose upstream did not state its shape (billing on what was delivered)
      probe: ffmpegVideoProbe(path.join(ctx.env.dataDir, 'tmp')),
      log: (level, message, fields) => ctx.logger.log(level, message, fields),
    },
    { owner: `${os.hostname()}:${process.pid}:${newId('', 4)}`, ...workerOptions },
  );

  const loop = workerLoop(() => worker.pump(), intervalMs, ctx.logger);

  // The recovery audit: every task charged once and with its usage row, whatever instant a crash hit.
  const audit = () =>
    auditTaskBooks({ quotas: new KnexQuotaRepository(ctx.knex, { now: ctx.clock }), usage: ctx.usage, catalogue }).then(
      (r) => {
        if (r.charged.length || r.usageRows.length || r.unpriced.length) ctx.logger.warn('task books repaired at start-up', { ...r });
      },
      (e: Error) => void ctx.logger.error('task books audit failed', { error: e.message }),
    );
  return {
    service,
    worker,
    content,
    start: () => loop.start(audit),
    async stop() {
      await loop.stop();
      await worker.stop();
    },
  };
}
