import type { TaskTransition } from '../task-transitions';
import type { VideoRequest } from '../video-limits';
import type { TaskStatus, VideoTask } from '../video-task';

/** A task leased to one worker until `leaseUntil`. */
export interface ClaimedTask {
  task: VideoTask;
  leaseOwner: string;
  leaseUntil: Date;
  /** polls since the operation was submitted (drives the backoff) */
  pollAttempts: number;
  /**
   * Set when a worker began submitting and no operation ref was stored: that submission's outcome
   * is unknown (the worker died or its lease ran out in between).
   */
  submitStartedAt: Date | null;
}

export interface ReleaseOptions {
  /** when the task is next due */
  nextPollAt: Date;
  pollAttempts?: number;
  progress?: number;
  /** forget an unfinished submission (it is known not to have reached the upstream) */
  clearSubmission?: boolean;
}

/**
 * The worker's side of the task store. Every write is conditional: on the status (compare-and-set)
 * and, for lease bookkeeping, on the lease owner, so a worker whose lease ran out changes nothing.
 */
export interface TaskQueue {
  /**
   * Leases up to `limit` queued/running tasks that are due (next poll time reached) and not leased
   * (or whose lease ran out). Concurrent claimers never get the same task.
   */
  claimDue(opts: { owner: string; now: Date; leaseMs: number; limit: number }): Promise<ClaimedTask[]>;
  /** Keeps a lease alive; false when the lease is no longer held by `owner`. */
  extendLease(id: string, owner: string, until: Date): Promise<boolean>;
  /** queued, no operation yet, leased by `owner` → records that submission began. False otherwise. */
  markSubmitting(id: string, owner: string, at: Date): Promise<boolean>;
  /** queued, no operation yet, leased by `owner` → stores the operation ref. Null otherwise. */
  saveOperation(id: string, owner: string, upstream: { provider: string; operation: string }): Promise<VideoTask | null>;
  /** Returns the lease (only if still held by `owner`) and schedules the next look. */
  release(id: string, owner: string, opts: ReleaseOptions): Promise<boolean>;
  /**
   * Optional: release() for many tasks in one write, same rule per task. Returns the ids whose lease was
   * still held (and so were released). The worker batches the releases of concurrent steps through it.
   */
  releaseMany?(owner: string, items: Array<{ id: string; opts: ReleaseOptions }>): Promise<Set<string>>;
  findById(id: string): Promise<VideoTask | null>;
  /** The task's request with its input images' bytes, for its submission; null when the task is gone. */
  loadRequest(id: string): Promise<VideoRequest | null>;
  /**
   * queued/running tasks older than their executionExpiresAfter at `now`, each moved as the core decides (`expire`:
   * the change from its status) with a compare-and-set, its events written with it.
   */
  expireOverdue(now: Date, limit: number, expire: (task: { status: TaskStatus }) => TaskTransition): Promise<VideoTask[]>;
  /** Deletes tasks created before `cutoff`, whatever their state, and returns them (to delete their content). */
  purgeCreatedBefore(cutoff: Date, limit: number): Promise<VideoTask[]>;
}
