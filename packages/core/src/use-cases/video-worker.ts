/**
 * The video worker: claims due tasks (leased, so several processes can share one store), drives each
 * through VideoTaskDriver with bounded concurrency, and does the housekeeping: expiry and retention.
 * It owns no timer; the composition root calls pump() on an interval and stop() on shutdown.
 */
import type { Billing } from './billing';
import type { ModelCatalogue } from '../catalogue';
import { FILE_CONTENT_PREFIX } from '../files';
import type { ContentStore } from '../ports/content-store.port';
import type { ClaimedTask, TaskQueue } from '../ports/task-queue.port';
import type { TaskRepository } from '../ports/task-repository.port';
import type { VideoProbe } from '../ports/video-probe.port';
import { transitionTask } from '../task-transitions';
import { VIDEO_DEFAULTS } from '../video-limits';
import type { TaskStatus } from '../video-task';
import { OutageLog } from './outage-log';
import { ReleaseBatcher } from './release-batcher';
import { EXPIRED_ERROR, VideoTaskDriver, type WorkerLog } from './video-task-driver';
import type { VideoProviderLookup } from './video-target';
import { deleteContent } from './video-tasks';

export interface VideoWorkerOptions {
  /** unique per process: leases are held in its name */
  owner: string;
  /** how long a claim is exclusive; renewed while a step runs */
  leaseMs?: number;
  /** tasks driven at once by this worker */
  concurrency?: number;
  /** first delay between polls of one task, growing by pollFactor up to pollMaxMs */
  pollMinMs?: number;
  pollMaxMs?: number;
  pollFactor?: number;
  /**
   * 0–1: each delay is shortened by up to this fraction at random, so tasks created together (or held
   * back by one Retry-After) drift apart instead of polling the upstream in bursts
   */
  pollJitter?: number;
  expireEveryMs?: number;
  purgeEveryMs?: number;
  retentionSeconds?: number;
}

export interface VideoWorkerDeps {
  tasks: TaskRepository & TaskQueue;
  content: ContentStore;
  catalogue: ModelCatalogue;
  providers: VideoProviderLookup;
  now?: () => number;
  log?: WorkerLog;
  /** 0 ≤ x < 1 (tests pass a fixed one) */
  random?: () => number;
  /** refunds charged tasks that ended unsuccessfully and settles succeeded ones on what they delivered (quotas) */
  billing?: Billing;
  /** measures delivered videos whose upstream did not state their shape (billing on what was delivered) */
  probe?: VideoProbe;
}

const BATCH = 100;

export class VideoWorker {
  private readonly o: Required<VideoWorkerOptions>;
  private readonly now: () => number;
  private readonly log: WorkerLog;
  private readonly housekeepingOutage: OutageLog;
  private readonly driver: VideoTaskDriver;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  /** one per step in flight: stop() aborts each (no listener per step on a shared signal) */
  private readonly steps = new Set<AbortController>();
  private lastExpire = -Infinity;
  private lastPurge = -Infinity;

  constructor(
    private readonly deps: VideoWorkerDeps,
    options: VideoWorkerOptions,
  ) {
    this.o = {
      leaseMs: 30_000,
      concurrency: 32,
      pollMinMs: 500,
      pollMaxMs: 10_000,
      pollFactor: 1.5,
      pollJitter: 0.2,
      expireEveryMs: 1000,
      purgeEveryMs: 600_000,
      retentionSeconds: VIDEO_DEFAULTS.retentionSeconds,
      ...options,
    };
    this.now = deps.now ?? Date.now;
    this.log = deps.log ?? (() => undefined);
    this.housekeepingOutage = new OutageLog(this.log, 'video housekeeping', this.now);
    const { pollMinMs, pollMaxMs, pollFactor, pollJitter } = this.o;
    const random = deps.random ?? Math.random;
    const { tasks } = deps;
    const releases = tasks.releaseMany
      ? new ReleaseBatcher(tasks as typeof tasks & Required<Pick<typeof tasks, 'releaseMany'>>, this.o.owner)
      : undefined;
    this.driver = new VideoTaskDriver({
      ...deps,
      owner: this.o.owner,
      now: this.now,
      log: this.log,
      random,
      releases,
      backoffMs: (attempt) => Math.round(Math.min(pollMaxMs, pollMinMs * pollFactor ** attempt) * (1 - pollJitter * random())),
    });
  }

  get owner(): string {
    return this.o.owner;
  }

  get busy(): number {
    return this.inFlight.size;
  }

  /** Housekeeping when due, then claims up to the free slots and starts driving them (does not wait for them). */
  async pump(): Promise<number> {
    if (this.stopping.signal.aborted) return 0;
    await this.housekeeping();
    const free = this.o.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    const claims = await this.deps.tasks.claimDue({ owner: this.o.owner, now: new Date(this.now()), leaseMs: this.o.leaseMs, limit: free });
    for (const c of claims) {
      const run = this.run(c).finally(() => this.inFlight.delete(c.task.id));
      this.inFlight.set(c.task.id, run);
    }
    return claims.length;
  }

  /** Waits until no step is in flight. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Aborts steps in flight (their leases are released or run out) and waits for them. */
  async stop(): Promise<void> {
    this.stopping.abort();
    for (const ac of this.steps) ac.abort();
    await this.drain();
  }

  /** Tasks past their execution deadline become expired; their upstream work is cancelled (best effort). */
  async expireOverdue(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = new Date(this.now());
      const expiry = (t: { status: TaskStatus }) => transitionTask(t, { to: 'expired', patch: { error: EXPIRED_ERROR } }, now);
      const expired = await this.deps.tasks.expireOverdue(now, BATCH, expiry);
      for (const t of expired) this.driver.cancelUpstream(t);
      total += expired.length;
      if (expired.length < BATCH) return total;
    }
  }

  /** Deletes tasks and their content once they are older than the retention period (7 days). */
  async purgeRetention(): Promise<number> {
    const cutoff = new Date(this.now() - this.o.retentionSeconds * 1000);
    let total = 0;
    for (;;) {
      const purged = await this.deps.tasks.purgeCreatedBefore(cutoff, BATCH);
      await Promise.all(purged.map((t) => deleteContent(this.deps.content, t)));
      total += purged.length;
      if (purged.length < BATCH) break;
    }
    // Catches content whose record went away without it (e.g. a crash between the two deletes); files expire on their own terms.
    await this.deps.content.deleteOlderThan?.(cutoff, [FILE_CONTENT_PREFIX]);
    return total;
  }

  private async housekeeping(): Promise<void> {
    const now = this.now();
    // a round with nothing due asked the store nothing: it says nothing about an outage ending
    let asked = false;
    try {
      if (now - this.lastExpire >= this.o.expireEveryMs) {
        asked = true;
        this.lastExpire = now;
        const n = await this.expireOverdue();
        if (n) this.log('info', 'video tasks expired', { count: n });
        const refunds = await this.deps.billing?.refundUnsuccessfulTasks();
        if (refunds?.length) this.log('info', 'video tasks refunded', { count: refunds.length });
        // Settlements a crash (or a store error) left owed after their task succeeded.
        const settled = await this.deps.billing?.settleDelivered(this.deps.catalogue);
        if (settled?.length) this.log('info', 'video tasks settled on delivery', { count: settled.length });
      }
      if (now - this.lastPurge >= this.o.purgeEveryMs) {
        asked = true;
        this.lastPurge = now;
        const n = await this.purgeRetention();
        if (n) this.log('info', 'video tasks purged', { count: n });
      }
      if (asked) this.housekeepingOutage.succeeded();
    } catch (e) {
      this.housekeepingOutage.failed(e); // runs every second: an outage is one line, not one a second
    }
  }

  /** One step with a lease heartbeat; losing the lease aborts the step. */
  private async run(c: ClaimedTask): Promise<void> {
    const ac = new AbortController();
    this.steps.add(ac);
    if (this.stopping.signal.aborted) ac.abort(); // claimed while stop() began: hand it straight back
    const beat = setInterval(
      () => {
        this.deps.tasks.extendLease(c.task.id, this.o.owner, new Date(this.now() + this.o.leaseMs)).then(
          (held) => held || ac.abort(),
          () => undefined,
        );
      },
      Math.max(10, Math.floor(this.o.leaseMs / 3)),
    );
    beat.unref?.();
    try {
      await this.driver.step(c, ac.signal);
      // Stopped mid-step: hand the task back now rather than when the lease runs out.
      if (ac.signal.aborted) await this.driver.release(c, { attempt: c.pollAttempts });
    } catch (e) {
      this.log('error', 'video task step failed', { taskId: c.task.id, error: (e as Error).message });
      await this.driver.release(c).catch(() => undefined); // else its lease runs out and the task is claimed again
    } finally {
      clearInterval(beat);
      this.steps.delete(ac);
    }
  }
}
