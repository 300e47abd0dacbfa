import type { Batch } from '@gateway/core';

const seconds = (d: Date | null): number | null => (d ? Math.floor(d.getTime() / 1000) : null);

/** A batch as OpenAI's batch object. */
export function encodeBatch(b: Batch) {
  return {
    id: b.id,
    object: 'batch' as const,
    endpoint: b.endpoint,
    errors: b.errors ? { object: 'list' as const, data: b.errors } : null,
    input_file_id: b.inputFileId,
    completion_window: b.completionWindow,
    status: b.status,
    output_file_id: b.outputFileId,
    error_file_id: b.errorFileId,
    created_at: seconds(b.createdAt),
    in_progress_at: seconds(b.inProgressAt),
    expires_at: seconds(b.expiresAt),
    finalizing_at: seconds(b.finalizingAt),
    completed_at: seconds(b.completedAt),
    failed_at: seconds(b.failedAt),
    expired_at: seconds(b.expiredAt),
    cancelling_at: seconds(b.cancellingAt),
    cancelled_at: seconds(b.cancelledAt),
    request_counts: b.counts,
    usage: {
      input_tokens: b.usage.inputTokens,
      input_tokens_details: { cached_tokens: b.usage.cachedTokens },
      output_tokens: b.usage.outputTokens,
      output_tokens_details: { reasoning_tokens: b.usage.reasoningTokens },
      total_tokens: b.usage.inputTokens + b.usage.outputTokens,
    },
    metadata: b.metadata,
  };
}

export function encodeBatchList(batches: Batch[], hasMore: boolean) {
  return {
    object: 'list' as const,
    data: batches.map(encodeBatch),
    first_id: batches[0]?.id ?? null,
    last_id: batches.at(-1)?.id ?? null,
    has_more: hasMore,
  };
}
