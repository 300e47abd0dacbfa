/** The VideoTask entity and its transition table. */
import { GatewayError } from './errors';
import type { AspectRatio, Resolution, VideoImage, VideoRequest } from './video-limits';

export const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Frozen transition table; mirrored by the store's compare-and-set updates. */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = Object.freeze({
  queued: Object.freeze(['running', 'failed', 'cancelled', 'expired'] as TaskStatus[]),
  running: Object.freeze(['succeeded', 'failed', 'cancelled', 'expired'] as TaskStatus[]),
  succeeded: Object.freeze([] as TaskStatus[]),
  failed: Object.freeze([] as TaskStatus[]),
  cancelled: Object.freeze([] as TaskStatus[]),
  expired: Object.freeze([] as TaskStatus[]),
});

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

export function assertTransition(from: TaskStatus, to: TaskStatus): void {
  if (!canTransition(from, to)) {
    throw new GatewayError('conflict', `A task cannot move from ${from} to ${to}.`, { code: 'illegal_transition' });
  }
}

export function isTerminal(status: TaskStatus): boolean {
  return TASK_TRANSITIONS[status].length === 0;
}

export interface TaskError {
  code: string;
  message: string;
}

/** What was delivered, known once the task succeeded. */
export interface VideoDelivery {
  resolution: Resolution;
  ratio: Exclude<AspectRatio, 'adaptive'>;
  durationSeconds: number;
  fps: number;
  width: number;
  height: number;
  /** where the bytes live, in the content store */
  contentKey: string;
  thumbnailKey?: string;
  bytes: number;
}

/** An input image as a task carries it: its shape, not its bytes. */
export type VideoImageInfo = Omit<VideoImage, 'data'>;

/**
 * The request as a task carries it: the input images' shapes without their bytes, which only a submission reads
 * (`TaskQueue.loadRequest`), so claiming, polling and reading a task move none of them.
 */
export type TaskRequest = Omit<VideoRequest, 'firstFrame' | 'lastFrame' | 'referenceImages'> & {
  firstFrame?: VideoImageInfo;
  lastFrame?: VideoImageInfo;
  referenceImages?: VideoImageInfo[];
};

/** The request without its images' bytes. */
export function taskRequestOf(r: VideoRequest): TaskRequest {
  const info = (i?: VideoImage): VideoImageInfo | undefined =>
    i ? { mediaType: i.mediaType, width: i.width, height: i.height } : undefined;
  const { firstFrame, lastFrame, referenceImages, ...rest } = r;
  return {
    ...rest,
    ...(firstFrame ? { firstFrame: info(firstFrame) } : {}),
    ...(lastFrame ? { lastFrame: info(lastFrame) } : {}),
    ...(referenceImages ? { referenceImages: referenceImages.map((i) => info(i)!) } : {}),
  };
}

export interface TaskDeployment {
  provider: string;
  upstreamModel: string;
}

export interface VideoTask {
  id: string;
  accountId: string;
  keyId: string;
  model: string;
  /** the wire format that created it (for the usage log and docs only) */
  format: string;
  status: TaskStatus;
  progress: number;
  request: TaskRequest;
  priority: number;
  serviceTier: string;
  executionExpiresAfter: number;
  error: TaskError | null;
  delivery: VideoDelivery | null;
  /**
   * The deployment chosen once at admission (the deployment-selection policy): the request check, the price and the
   * upstream call all use it. Null only on tasks that ended before reaching an upstream under a release without
   * it (migration 023 failed the active ones): a task without one is never submitted.
   */
  deployment: TaskDeployment | null;
  /** provider id and opaque operation reference once submitted upstream */
  upstream: { provider: string; operation: string } | null;
  idempotencyKey: string | null;
  /** where every status change of this task is POSTed (signed with the account's secret); absent or null: nowhere */
  callbackUrl?: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}
