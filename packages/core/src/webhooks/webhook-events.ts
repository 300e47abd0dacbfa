/** The webhook events a video task's status changes give, one rule for every format. */
import { newId } from '../auth';
import type { TaskStatus, VideoTask } from '../video-task';

export const WEBHOOK_EVENT_TYPES = [
  'video.queued',
  'video.running',
  'video.completed',
  'video.failed',
  'video.cancelled',
  'video.expired',
  // account events (account-alerts.ts), not task status changes
  'budget.threshold',
  'key.expiring',
  // a batch's end (batch-runner.ts), of every batch format
  'batch.completed',
  'batch.failed',
  'batch.expired',
  'batch.cancelled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** `succeeded` is named `completed` in the event, as OpenAI's video object names it. */
const TYPE_OF: Readonly<Record<TaskStatus, Extract<WebhookEventType, `video.${string}`>>> = Object.freeze({
  queued: 'video.queued',
  running: 'video.running',
  succeeded: 'video.completed',
  failed: 'video.failed',
  cancelled: 'video.cancelled',
  expired: 'video.expired',
});

export function eventTypeOf(status: TaskStatus) {
  return TYPE_OF[status];
}

export function isWebhookEventType(v: unknown): v is WebhookEventType {
  return typeof v === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(v);
}

/** Event ids double as the Standard Webhooks `webhook-id`: the same on every attempt, unique per status change. */
export const newEventId = (): string => newId('evt_');

export interface WebhookEventBody {
  object: 'event';
  id: string;
  type: WebhookEventType;
  created_at: number;
  data: { id: string; status: TaskStatus; model: string };
}

/** The body an endpoint receives for one status change (`created_at` in unix seconds). */
export function webhookEventBody(eventId: string, task: Pick<VideoTask, 'id' | 'status' | 'model'>, at: Date): WebhookEventBody {
  return {
    object: 'event',
    id: eventId,
    type: eventTypeOf(task.status),
    created_at: Math.floor(at.getTime() / 1000),
    data: { id: task.id, status: task.status, model: task.model },
  };
}
