import type { Knex } from 'knex';
import type { UsageLog, UsageRow } from '@gateway/core';

/**
 * Buffers rows and writes them in batches, off the request path. A failed batch is reported
 * to onError and dropped: the usage log must never fail a request.
 */
export class KnexUsageLog implements UsageLog {
  private buffer: UsageRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private inflight: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Knex,
    private readonly opts: { flushMs?: number; maxBatch?: number; onError?: (e: unknown) => void } = {},
  ) {}

  record(row: UsageRow): void {
    this.buffer.push({ ...row, createdAt: row.createdAt ?? new Date() });
    if (this.buffer.length >= (this.opts.maxBatch ?? 500)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.opts.flushMs ?? 200);
      this.timer.unref();
    }
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) {
      this.inflight = this.inflight.then(() =>
        this.db('usage_log')
          .insert(batch.map(usageRowToRecord))
          .then(
            () => undefined,
            (e) => this.opts.onError?.(e),
          ),
      );
    }
    return this.inflight;
  }
}

/** A usage row as the usage_log table stores it (also written by task admission, in its transaction). */
export function usageRowToRecord(r: UsageRow): Record<string, unknown> {
  return {
    created_at: r.createdAt,
    request_id: r.requestId,
    account_id: r.accountId,
    key_id: r.keyId,
    model: r.model,
    format: r.format,
    status: r.status,
    http_status: r.httpStatus,
    error_code: r.errorCode ?? null,
    input_tokens: r.inputTokens ?? null,
    output_tokens: r.outputTokens ?? null,
    cached_tokens: r.cachedTokens ?? null,
    cache_write_tokens: r.cacheWriteTokens ?? null,
    reasoning_tokens: r.reasoningTokens ?? null,
    latency_ms: r.latencyMs === undefined ? null : Math.round(r.latencyMs),
    ttft_ms: r.ttftMs === undefined || r.ttftMs === null ? null : Math.round(r.ttftMs),
    task_id: r.taskId ?? null,
    idempotency_key: r.idempotencyKey ?? null,
    provider: r.provider ?? null,
    upstream_request_id: r.upstreamRequestId ?? null,
    attempts: r.attempts ?? null,
    warnings: r.warnings && r.warnings.length ? JSON.stringify(r.warnings) : null,
    credits: r.credits ?? null,
    video_requested_seconds: r.video?.requested.seconds ?? null,
    video_requested_resolution: r.video?.requested.resolution ?? null,
    video_delivered_seconds: r.video?.delivered?.seconds ?? null,
    video_delivered_resolution: r.video?.delivered?.resolution ?? null,
  };
}
