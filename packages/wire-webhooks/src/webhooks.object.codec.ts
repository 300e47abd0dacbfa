import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@gateway/core';

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** An endpoint as the API shows it: never its secret. */
export function encodeEndpoint(e: WebhookEndpoint) {
  return {
    object: 'webhook_endpoint' as const,
    id: e.id,
    url: e.url,
    events: e.events,
    status: e.disabledAt ? ('disabled' as const) : ('enabled' as const),
    disabled_reason: e.disabledReason,
    failing_since: unix(e.failingSince),
    created_at: unix(e.createdAt),
  };
}

function encodeAttempt(a: WebhookAttempt) {
  return {
    attempt: a.attempt,
    at: unix(a.at),
    response_status: a.statusCode,
    response_body: a.responseExcerpt,
    error: a.error,
    duration_ms: a.durationMs,
  };
}

/** One delivery: the event it carries, its state, and each attempt with what the endpoint answered. */
export function encodeDelivery(d: WebhookDelivery & { attemptLog: WebhookAttempt[] }) {
  return {
    object: 'webhook_delivery' as const,
    id: d.id,
    event_id: d.eventId,
    type: d.type,
    task_id: d.taskId,
    status: d.state,
    next_attempt_at: d.state === 'pending' ? unix(d.nextAttemptAt) : null,
    attempts: d.attemptLog.map(encodeAttempt),
  };
}
