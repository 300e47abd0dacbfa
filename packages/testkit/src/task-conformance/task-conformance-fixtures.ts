import {
  newId,
  transitionTask,
  type NewVideoTask,
  type TaskPatch,
  type TaskQueue,
  type TaskRepository,
  type TaskStatus,
  type VideoTask,
} from '@gateway/core';

export type TaskStore = TaskRepository & TaskQueue;

/** What the rule groups share: the store under test (a second handle on the same data), reset before every test. */
export interface TaskConformance {
  repo: TaskStore;
  other: TaskStore;
  /** a new task moved from queued to `status` through legal moves */
  taskIn(status: TaskStatus, over?: Partial<NewVideoTask>): Promise<VideoTask>;
}

const T0 = new Date('2026-03-01T00:00:00Z');
export const at = (ms: number) => new Date(T0.getTime() + ms);
export const ERR = { code: 'expired', message: 'expired in conformance' };
/** A status change as the core decides it (transitionTask, which throws on an illegal one), handed to the store. */
export async function moveTask(
  store: Pick<TaskRepository, 'applyTransition'>,
  id: string,
  from: TaskStatus,
  to: TaskStatus,
  patch?: TaskPatch,
  now = new Date(),
): Promise<VideoTask | null> {
  return store.applyTransition(id, transitionTask({ status: from }, { to, patch }, now));
}

/** The core's expiry decision at `now`, as the worker hands it to expireOverdue. */
export const expiryAt = (now: Date) => (task: { status: TaskStatus }) =>
  transitionTask(task, { to: 'expired', patch: { error: ERR } }, now);

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);

export function conformanceTask(over: Partial<NewVideoTask> = {}): NewVideoTask {
  return {
    id: newId('task'),
    accountId: 'acct-a',
    keyId: 'key-a',
    model: 'sim-video-2.0',
    format: 'conformance',
    request: {
      model: 'sim-video-2.0',
      prompt: 'a red fox',
      durationSeconds: 5,
      resolution: '720p',
      aspectRatio: 'adaptive',
      generateAudio: true,
      fps: 24,
    },
    priority: 0,
    serviceTier: 'default',
    executionExpiresAfter: 3600,
    idempotencyKey: null,
    deployment: { provider: 'sim', upstreamModel: 'sim-video-2.0-up' },
    createdAt: T0,
    ...over,
  };
}
