/**
 * One step of one leased task: submit it, poll it, or deliver its artifact. Every write is a
 * compare-and-set, so a step whose lease ran out (another worker took over) changes nothing.
 */
import { newId } from '../auth';
import type { ModelCatalogue } from '../catalogue';
import { GatewayError, toGatewayError, type ErrorReason } from '../errors';
import { extensionOf, type ContentStore } from '../ports/content-store.port';
import type { ClaimedTask, ReleaseOptions, TaskQueue } from '../ports/task-queue.port';
import type { TaskPatch, TaskRepository } from '../ports/task-repository.port';
import type { VideoArtifact } from '../ports/video-model.port';
import type { VideoProbe } from '../ports/video-probe.port';
import { transitionTask } from '../task-transitions';
import { resolveRatio } from '../video-limits';
import type { TaskError, TaskStatus, VideoDelivery, VideoTask } from '../video-task';
import type { Billing } from './billing';
import { deliveredShape, resolutionOf, type DeliveredShape } from './delivered-shape';
import { cancelUpstream, submitTarget, type VideoProviderLookup, type VideoTarget } from './video-target';
import { deleteContent } from './video-tasks';

export const EXPIRED_ERROR: TaskError = Object.freeze({
  code: 'expired',
  message: 'The task did not finish within its execution time limit (execution_expires_after) and expired.',
});

export const SUBMISSION_UNKNOWN_ERROR: TaskError = Object.freeze({
  code: 'submission_unknown',
  message:
    'A gateway worker stopped while submitting this task, so whether the upstream received it is unknown. ' +
    'It was not resubmitted, to avoid a second generation; create a new task.',
});

/** Failures that prove the upstream did not accept a submission: retrying it cannot duplicate work. */
const NOT_ACCEPTED: ReadonlySet<ErrorReason> = new Set<ErrorReason>(['rate_limited', 'upstream_unavailable']);

export type WorkerLog = (level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown>) => void;

export interface DriverDeps {
  tasks: TaskRepository & TaskQueue;
  content: ContentStore;
  catalogue: ModelCatalogue;
  providers: VideoProviderLookup;
  owner: string;
  now: () => number;
  /** delay before the next look, from the number of looks so far */
  backoffMs: (attempt: number) => number;
  log: WorkerLog;
  /** 0 ≤ x < 1; spreads the tasks a provider's Retry-After held back (tests pass a fixed one) */
  random?: () => number;
  /** batches releases into one write when the store can (ReleaseBatcher) */
  releases?: { release(id: string, opts: ReleaseOptions): Promise<boolean> };
  /** measures a stored video whose upstream did not state its shape */
  probe?: VideoProbe;
  /** settles a succeeded task's charge on what it delivered */
  billing?: Billing;
}

export class VideoTaskDriver {
  /**
   * Per provider: no call before this instant (its last 429 said Retry-After). Tasks of that provider
   * claimed meanwhile are put back without an upstream call, so one rate limit does not become a
   * thousand more 429s.
   */
  private readonly coolUntil = new Map<string, number>();

  constructor(private readonly d: DriverDeps) {}

  async step(c: ClaimedTask, signal: AbortSignal): Promise<void> {
    const t = c.task;
    if (this.d.now() >= t.createdAt.getTime() + t.executionExpiresAfter * 1000) return this.expire(t);
    if (!t.upstream) return this.submit(c, signal);
    return this.poll(c, signal);
  }

  /** Puts the task back with its next look scheduled; used after any step that did not finish it. */
  release(c: ClaimedTask, opts: Partial<ReleaseOptions> & { attempt?: number } = {}): Promise<boolean> {
    const { attempt: _attempt, ...rest } = opts;
    const attempt = opts.attempt ?? c.pollAttempts + 1;
    const o: ReleaseOptions = { nextPollAt: new Date(this.d.now() + this.d.backoffMs(attempt)), pollAttempts: attempt, ...rest };
    return this.d.releases ? this.d.releases.release(c.task.id, o) : this.d.tasks.release(c.task.id, this.d.owner, o);
  }

  private async submit(c: ClaimedTask, signal: AbortSignal): Promise<void> {
    const t = c.task;
    let target: VideoTarget;
    try {
      target = submitTarget(t, this.d.providers);
    } catch (e) {
      return this.finish(t, 'failed', { error: taskError(toGatewayError(e)) });
    }
    // A start whose outcome was lost is repeated only where the upstream deduplicates by task id.
    if (c.submitStartedAt && !target.port.idempotentStart) return this.finish(t, 'failed', { error: SUBMISSION_UNKNOWN_ERROR });
    if (await this.heldBack(c, target.provider)) return;
    if (!(await this.d.tasks.markSubmitting(t.id, this.d.owner, new Date(this.d.now())))) return;
    // The input images are read here only: claims and polls carry the task without their bytes.
    const request = await this.d.tasks.loadRequest(t.id);
    if (!request) return;
    let ref: string;
    try {
      ref = await target.port.start({ ...request, upstreamModel: target.upstreamModel }, { taskId: t.id, signal });
    } catch (e) {
      if (signal.aborted) return; // stopping mid-start: the outcome is unknown and the marker stays
      const err = toGatewayError(e);
      if (NOT_ACCEPTED.has(err.reason)) {
        this.d.log('warn', 'video submission refused, will retry', { taskId: t.id, code: err.code });
        await this.release(c, { clearSubmission: true, ...this.retryAfter(target.provider, err, c.pollAttempts + 1) });
        return;
      }
      return this.finish(t, 'failed', { error: taskError(err) });
    }
    const saved = await this.d.tasks.saveOperation(t.id, this.d.owner, { provider: target.provider, operation: ref });
    if (!saved) {
      // Cancelled or expired meanwhile, or our lease ran out: do not leave an orphan rendering upstream
      // (unless another worker stored this very operation, which an idempotent upstream returns).
      const current = await this.d.tasks.findById(t.id);
      if (current?.upstream?.operation !== ref)
        target.port
          .cancel?.(ref)
          .catch((e: Error) => this.d.log('warn', 'orphan upstream operation not cancelled', { taskId: t.id, error: e.message }));
      return;
    }
    await this.release(c, { attempt: 0 });
  }

  private async poll(c: ClaimedTask, signal: AbortSignal): Promise<void> {
    const t = c.task;
    const up = t.upstream!;
    const port = this.d.providers.video(up.provider);
    if (!port)
      return this.finish(t, 'failed', {
        error: { code: 'upstream_unavailable', message: `Provider ${up.provider} is no longer configured.` },
      });
    if (await this.heldBack(c, up.provider)) return;
    let st;
    try {
      st = await port.status(up.operation, { taskId: t.id, signal });
    } catch (e) {
      if (signal.aborted) return;
      const err = toGatewayError(e);
      if (err.retryable) {
        await this.release(c, this.retryAfter(up.provider, err, c.pollAttempts + 1));
        return;
      }
      return this.finish(t, 'failed', { error: taskError(err) });
    }
    if (st.state === 'failed') return this.finish(t, 'failed', { error: { code: st.code, message: st.message } });
    let current = t;
    if (t.status === 'queued' && (st.state === 'succeeded' || st.running !== false)) {
      const moved = await this.move(t.id, 'queued', 'running', {
        progress: st.state === 'pending' ? progressOf(st.progress) : 0,
      });
      if (!moved) return; // cancelled or expired meanwhile
      current = moved;
    }
    if (st.state === 'succeeded') return this.deliver(c, current, st.artifact, signal);
    await this.release(c, { progress: current.status === 'running' && st.progress !== undefined ? progressOf(st.progress) : undefined });
  }

  private async deliver(c: ClaimedTask, t: VideoTask, artifact: VideoArtifact, signal: AbortSignal): Promise<void> {
    // A nonce per attempt: a worker that loses the final compare-and-set deletes only its own copy.
    const base = `videos/${t.id}-${newId('', 6)}`;
    const contentKey = `${base}.mp4`;
    const thumbnailKey = artifact.thumbnail ? `${base}-thumb.${extensionOf(artifact.thumbnail.mediaType)}` : undefined;
    const draft = { ...t, delivery: { contentKey, thumbnailKey } as VideoDelivery };
    let delivery: VideoDelivery;
    let source: DeliveredShape['source'];
    try {
      const { size } = await this.d.content.put(contentKey, await artifact.open());
      if (artifact.thumbnail) await this.d.content.put(thumbnailKey!, await artifact.thumbnail.open());
      const probe = this.d.probe;
      const shape = await deliveredShape(artifact, t.request, probe && (() => probe.probe(this.d.content.open(contentKey), signal)), (e) =>
        this.d.log('warn', 'video probe failed, settling on what was requested', { taskId: t.id, error: e.message }),
      );
      source = shape.source;
      delivery = {
        resolution: resolutionOf(shape),
        ratio: resolveRatio('adaptive', shape),
        durationSeconds: Math.round(shape.durationSeconds),
        fps: shape.fps,
        width: shape.width,
        height: shape.height,
        contentKey,
        thumbnailKey,
        bytes: size,
      };
    } catch (e) {
      await deleteContent(this.d.content, draft).catch(() => undefined); // the content store's retention removes leftovers
      if (signal.aborted) return;
      // The upstream answered that the result is gone for good (e.g. an expired result URL): retrying cannot help.
      if (e instanceof GatewayError && !e.retryable && e.upstreamStatus !== undefined)
        return this.finish(t, 'failed', { error: taskError(e) });
      this.d.log('warn', 'video copy failed, will retry', { taskId: t.id, error: (e as Error).message });
      await this.release(c);
      return;
    }
    const done = await this.move(t.id, 'running', 'succeeded', { delivery, progress: 100 });
    if (!done) {
      await deleteContent(this.d.content, draft).catch(() => undefined); // the content store's retention removes leftovers
      return;
    }
    this.d.log('info', 'video task succeeded', { taskId: t.id, bytes: delivery.bytes, shape: source });
    await artifact.dispose?.().catch(() => undefined); // frees a temporary copy; the task has succeeded either way
    // Settled now rather than at the next sweep; a failure here is the sweep's to repeat (compare-and-set).
    await this.d.billing?.settleDelivered(this.d.catalogue, { taskId: t.id }).catch((e: Error) => {
      this.d.log('warn', 'video settlement deferred to the sweep', { taskId: t.id, error: e.message });
    });
  }

  async expire(t: VideoTask): Promise<void> {
    const expired = await this.move(t.id, t.status, 'expired', { error: EXPIRED_ERROR });
    if (expired) this.cancelUpstream(expired);
  }

  cancelUpstream(t: VideoTask): void {
    cancelUpstream(this.d.providers, t);
  }

  /** A provider in its Retry-After pause: the task goes back, due just after the pause, without an upstream call. */
  private async heldBack(c: ClaimedTask, provider: string): Promise<boolean> {
    const until = this.coolUntil.get(provider);
    if (until === undefined) return false;
    if (until <= this.d.now()) {
      this.coolUntil.delete(provider);
      return false;
    }
    await this.release(c, { attempt: c.pollAttempts, nextPollAt: this.spread(until) });
    return true;
  }

  /** A 429 with Retry-After pauses the whole provider and schedules this task after the pause (never before its backoff). */
  private retryAfter(provider: string, err: GatewayError, attempt: number): Partial<ReleaseOptions> & { attempt: number } {
    if (err.reason !== 'rate_limited' || !err.retryAfterSeconds || err.retryAfterSeconds <= 0) return { attempt };
    const until = this.d.now() + err.retryAfterSeconds * 1000;
    this.coolUntil.set(provider, Math.max(until, this.coolUntil.get(provider) ?? 0));
    this.d.log('warn', 'upstream rate limited, pausing its calls', { provider, retryAfterSeconds: err.retryAfterSeconds });
    const backoff = this.d.now() + this.d.backoffMs(attempt);
    return { attempt, nextPollAt: new Date(Math.max(backoff, this.spread(until).getTime())) };
  }

  /** Up to a second (or a quarter of the pause) after `until`, so the held-back tasks do not all return at once. */
  private spread(until: number): Date {
    const width = Math.max(1000, (until - this.d.now()) / 4);
    return new Date(until + Math.floor((this.d.random ?? Math.random)() * width));
  }

  private async finish(t: VideoTask, to: TaskStatus, patch: { error: TaskError }): Promise<void> {
    const done = await this.move(t.id, t.status, to, patch);
    if (done) this.d.log('info', `video task ${to}`, { taskId: t.id, code: patch.error.code });
  }

  /** The change the core decides (transitionTask), which the store writes as a compare-and-set: null when it lost. */
  private move(id: string, from: TaskStatus, to: TaskStatus, patch: TaskPatch): Promise<VideoTask | null> {
    return this.d.tasks.applyTransition(id, transitionTask({ status: from }, { to, patch }, new Date(this.d.now())));
  }
}

/** The upstream's own code stays visible in the message when the gateway's code replaced it. */
function taskError(err: GatewayError): TaskError {
  const up = err.upstreamStatus !== undefined && err.upstreamCode && err.upstreamCode !== err.code ? err.upstreamCode : undefined;
  return { code: err.code, message: up && !err.message.includes(up) ? `${err.message} (upstream code: ${up})` : err.message };
}

/** Running progress stays below 100 until the content is delivered. */
function progressOf(p: number | undefined): number {
  return Math.max(0, Math.min(99, Math.round(p ?? 0)));
}
