import os from 'node:os';
import path from 'node:path';
import {
  auditTaskBooks,
  DeploymentSelector,
  newId,
  VideoTasks,
  VideoWorker,
  workerLoop,
  type ContentStore,
  type Guardrails,
  type VideoProviderLookup,
  type VideoWorkerOptions,
} from '@gateway/core';
import { FileContentStore } from '@gateway/store-files';
import type { WiringContext } from './context';
import { ffmpegVideoProbe } from './ffmpeg-video-probe';

export interface VideoEngineOptions extends Partial<Omit<VideoWorkerOptions, 'owner'>> {
  /** pause between claim rounds when no task change woke the worker (a task comes due without a notice) */
  intervalMs?: number;
}

/**
 * The fallback poll: a task's next upstream poll comes due without a notice, so it waits at most this beyond its time;
 * the shortest poll delay (VIDEO_POLL_MIN_MS' default) keeps that small beside the delay itself.
 */
const FALLBACK_INTERVAL_MS = 500;
/** the most often task change notices start rounds: a burst of them (every instance's progress writes) is one round */
const WAKE_GAP_MS = 100;

export interface VideoEngine {
  /** what the video wire formats call */
  service: VideoTasks;
  worker: VideoWorker;
  content: ContentStore;
  /** starts the claim loop (once per engine) */
  start(): void;
  /** a task changed (a new one, most usefully): claim now rather than at the next poll */
  wake(): void;
  /** stops claiming, aborts steps in flight and hands their tasks back */
  stop(): Promise<void>;
}

/** What the engine needs of the wiring context (tests pass their own providers). */
export type VideoEngineContext = Pick<WiringContext, 'env' | 'config' | 'knex' | 'stores' | 'usage' | 'logger'> & {
  providers: VideoProviderLookup;
  billing?: WiringContext['billing'];
  /** the gateway's content store; DATA_DIR/content when absent */
  content?: ContentStore;
  clock?: WiringContext['clock'];
  /** the input guardrails video prompts go through (wiring/guardrails.ts) */
  guardrails?: Guardrails;
};

/** The video use case and its worker over the gateway's store, content directory and providers. */
export function buildVideoEngine(ctx: VideoEngineContext, options: VideoEngineOptions = ctx.env.videoWorker ?? {}): VideoEngine {
  const { intervalMs = FALLBACK_INTERVAL_MS, ...workerOptions } = options;
  const tasks = ctx.stores.tasks;
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
    callbackSecret: (accountId) => ctx.stores.webhooks.accountSecret(accountId),
    guardrails: ctx.guardrails,
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

  const loop = workerLoop(() => worker.pump(), intervalMs, ctx.logger, { wakeGapMs: Math.min(WAKE_GAP_MS, intervalMs) });

  // The recovery audit: every task charged once and with its usage row, whatever instant a crash hit.
  const audit = () =>
    auditTaskBooks({ quotas: ctx.stores.quotas, usage: ctx.usage, catalogue }).then(
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
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      await worker.stop();
    },
  };
}
