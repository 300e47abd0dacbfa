/**
 * What a status change does, decided once for every store: whether it is legal, what it sets (a terminal state
 * records its completion time and ends the worker's lease) and the events it emits. A store writes the patch with a
 * compare-and-set on `from` and persists the events in the same transaction.
 */
import type { TaskPatch } from './ports/task-repository.port';
import { assertTransition, isTerminal, type TaskStatus } from './video-task';
import { eventTypeOf, type WebhookEventType } from './webhooks/webhook-events';

/** A task status change: one webhook event (outbox rows per subscribed endpoint and callback URL) and live status. */
export interface TaskStatusEvent {
  type: WebhookEventType;
  status: TaskStatus;
  at: Date;
}

export interface TaskStatusPatch extends TaskPatch {
  status: TaskStatus;
  updatedAt: Date;
  /** true when the change ends the worker's lease (a terminal state) */
  endsLease: boolean;
}

export interface TaskTransition {
  /** the status the store's compare-and-set expects */
  from: TaskStatus;
  patch: TaskStatusPatch;
  events: TaskStatusEvent[];
}

/** The change `from` → `to` with `patch`, at `now`; throws `illegal_transition` (409) when the table forbids it. */
export function transitionTask(task: { status: TaskStatus }, change: { to: TaskStatus; patch?: TaskPatch }, now: Date): TaskTransition {
  const { to, patch = {} } = change;
  assertTransition(task.status, to);
  const terminal = isTerminal(to);
  return {
    from: task.status,
    patch: {
      ...patch,
      status: to,
      updatedAt: now,
      ...(terminal ? { completedAt: patch.completedAt ?? now } : {}),
      endsLease: terminal,
    },
    events: statusEvents(to, now),
  };
}

/** The events of a task entering `status` (a new task enters `queued`). */
export function statusEvents(status: TaskStatus, at: Date): TaskStatusEvent[] {
  return [{ type: eventTypeOf(status), status, at }];
}
