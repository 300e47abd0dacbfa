import { batchEnded, succeeded, type Batch, type LineOutcome } from '@gateway/core';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function processingStatus(b: Batch): 'in_progress' | 'canceling' | 'ended' {
  if (batchEnded(b.status)) return 'ended';
  return b.cancellingAt ? 'canceling' : 'in_progress';
}

/** A batch as Anthropic's MessageBatch; the lines not answered are counted as the batch ended them. */
export function encodeMessageBatch(b: Batch, resultsUrl: string) {
  const status = processingStatus(b);
  const unanswered = b.counts.total - b.counts.completed - b.counts.failed;
  const ended = status === 'ended';
  return {
    id: b.id,
    type: 'message_batch' as const,
    processing_status: status,
    request_counts: {
      processing: ended ? 0 : unanswered,
      succeeded: b.counts.completed,
      errored: b.counts.failed,
      canceled: ended && b.status === 'cancelled' ? unanswered : 0,
      expired: ended && b.status === 'expired' ? unanswered : 0,
    },
    ended_at: iso(b.completedAt ?? b.cancelledAt ?? b.expiredAt),
    created_at: iso(b.createdAt),
    expires_at: iso(b.expiresAt),
    archived_at: null,
    cancel_initiated_at: iso(b.cancellingAt),
    results_url: ended ? resultsUrl : null,
  };
}

/** One line of the results JSONL: `succeeded` with the message, `errored` with the error body, `canceled` or `expired`. */
export function encodeResult(customId: string, outcome: LineOutcome | null, batch: Batch) {
  const result = (() => {
    if (!outcome) return { type: batch.status === 'expired' ? ('expired' as const) : ('canceled' as const) };
    if (outcome.kind === 'unrun') {
      if (outcome.code === 'batch_cancelled') return { type: 'canceled' as const };
      if (outcome.code === 'batch_expired') return { type: 'expired' as const };
      const type = outcome.code === 'quota_exhausted' ? 'billing_error' : 'api_error';
      return { type: 'errored' as const, error: { type: 'error', error: { type, message: outcome.message } } };
    }
    if (succeeded(outcome)) return { type: 'succeeded' as const, message: outcome.body };
    return { type: 'errored' as const, error: outcome.body };
  })();
  return { custom_id: customId, result };
}
