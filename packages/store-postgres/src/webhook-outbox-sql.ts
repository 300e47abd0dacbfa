import type { Knex } from 'knex';
import { newEventId, newId, type TaskStatusEvent } from '@gateway/core';
import { rowSnapshot } from './task-row.codec';

/**
 * Writes the outbox rows of a status change's events (the core's transitionTask decides them), inside the caller's
 * transaction (the one that changed the status): per event, one per enabled endpoint of the account subscribed to
 * it, and one for the task's callback_url. The change and its deliveries commit together or not at all.
 */
export async function enqueueTaskEvents(trx: Knex | Knex.Transaction, row: Record<string, any>, events: TaskStatusEvent[]): Promise<void> {
  for (const { type, at } of events) {
    const task = JSON.stringify(rowSnapshot(row));
    const event = { event_id: newEventId(), type, task_id: row.id, account_id: row.account_id, task, event_at: at, next_attempt_at: at };
    await enqueueDeliveries(trx, event, row.callback_url);
  }
}

/** An outbox row's columns but its target; task_id names the key for an account alert. */
interface OutboxEvent {
  event_id: string;
  type: string;
  task_id: string;
  account_id: string;
  task: string | null;
  body?: string;
  event_at: Date;
  next_attempt_at: unknown;
}

/** One outbox row per target: each enabled endpoint of the account subscribed to the event's type, and a callback_url. */
export async function enqueueDeliveries(
  trx: Knex | Knex.Transaction,
  event: OutboxEvent,
  callbackUrl: string | null = null,
): Promise<void> {
  const endpoints: Array<{ id: string }> = await trx('webhook_endpoints')
    .where({ account_id: event.account_id })
    .whereNull('disabled_at')
    .whereRaw('events @> ?::jsonb', [JSON.stringify([event.type])])
    .select('id');
  const targets: Array<{ endpoint_id: string | null; callback_url: string | null }> = endpoints.map((e) => ({
    endpoint_id: e.id,
    callback_url: null,
  }));
  if (callbackUrl) targets.push({ endpoint_id: null, callback_url: callbackUrl });
  if (targets.length) await trx('webhook_deliveries').insert(targets.map((t) => ({ id: newId('whd_'), ...event, ...t })));
}
