import type { Knex } from 'knex';
import { newEventId, newId, type TaskStatusEvent } from '@gateway/core';
import { rowSnapshot } from './task-row.codec';

/**
 * Writes the outbox rows of a status change's events (the core's transitionTask decides them), inside the caller's
 * transaction (the one that changed the status): per event, one per enabled endpoint of the account subscribed to
 * it, and one for the task's callback_url. The change and its deliveries commit together or not at all.
 */
export async function enqueueTaskEvents(trx: Knex | Knex.Transaction, row: Record<string, any>, events: TaskStatusEvent[]): Promise<void> {
  for (const e of events) await enqueueEvent(trx, row, e);
}

async function enqueueEvent(trx: Knex | Knex.Transaction, row: Record<string, any>, { type, at }: TaskStatusEvent): Promise<void> {
  const endpoints: Array<{ id: string }> = await trx('webhook_endpoints')
    .where({ account_id: row.account_id })
    .whereNull('disabled_at')
    .whereRaw('events @> ?::jsonb', [JSON.stringify([type])])
    .select('id');
  const targets: Array<{ endpoint_id: string | null; callback_url: string | null }> = endpoints.map((e) => ({
    endpoint_id: e.id,
    callback_url: null,
  }));
  if (row.callback_url) targets.push({ endpoint_id: null, callback_url: row.callback_url });
  if (!targets.length) return;
  const eventId = newEventId();
  const task = JSON.stringify(rowSnapshot(row));
  await trx('webhook_deliveries').insert(
    targets.map((t) => ({
      id: newId('whd_'),
      event_id: eventId,
      type,
      task_id: row.id,
      account_id: row.account_id,
      ...t,
      task,
      event_at: at,
      next_attempt_at: at,
    })),
  );
}
