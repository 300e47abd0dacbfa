import { batchEnded, succeeded, type Batch, type LineOutcome } from '@gateway/core';

const TYPE_PREFIX = 'type.googleapis.com/google.ai.generativelanguage.v1main';
export const GEMINI_BATCH_TYPE = `${TYPE_PREFIX}.GenerateContentBatch`;
const BATCH_OUTPUT_TYPE = `${TYPE_PREFIX}.GenerateContentBatchOutput`;

/** What a Gemini batch keeps besides the engine's own fields, in the batch's metadata (string values, as OpenAI's). */
export interface GeminiBatchInfo {
  displayName: string;
  /** `models/…`, as the path named it */
  model: string;
  /** each inlined request's `metadata`, echoed beside its response (null: none) */
  requestMetadata: ReadonlyArray<unknown>;
}

export const encodeBatchInfo = (info: GeminiBatchInfo): Record<string, string> => ({
  displayName: info.displayName,
  model: info.model,
  requestMetadata: JSON.stringify(info.requestMetadata),
});

function decodeBatchInfo(metadata: Batch['metadata']): GeminiBatchInfo {
  let requestMetadata: unknown[] = [];
  try {
    const parsed: unknown = JSON.parse(metadata?.requestMetadata ?? '[]');
    if (Array.isArray(parsed)) requestMetadata = parsed;
  } catch {
    // a batch stored without it echoes no metadata
  }
  return { displayName: metadata?.displayName ?? '', model: metadata?.model ?? '', requestMetadata };
}

/** The batch's resource name: the gateway's own id under `batches/`. */
export const batchName = (id: string): string => `batches/${id}`;

const STATE: Record<Batch['status'], string> = {
  validating: 'BATCH_STATE_PENDING',
  in_progress: 'BATCH_STATE_RUNNING',
  cancelling: 'BATCH_STATE_RUNNING',
  finalizing: 'BATCH_STATE_RUNNING',
  completed: 'BATCH_STATE_SUCCEEDED',
  failed: 'BATCH_STATE_FAILED',
  cancelled: 'BATCH_STATE_CANCELLED',
  expired: 'BATCH_STATE_EXPIRED',
};

/** google.rpc.Code of an HTTP status, as Google's own mapping has it. */
const RPC_CODE: Readonly<Record<number, number>> = { 400: 3, 401: 16, 403: 7, 404: 5, 409: 6, 413: 3, 429: 8, 499: 1, 503: 14, 504: 4 };
/** google.rpc.Code of a line that never got an answer. */
const UNRUN_CODE: Readonly<Record<string, number>> = { batch_cancelled: 1, batch_expired: 4, quota_exhausted: 8, interrupted: 10 };

const errorMessage = (body: unknown): string => {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' ? message : typeof body === 'string' ? body : 'The request failed.';
};

/** One `InlinedResponse`: the answer (a GenerateContentResponse) or a google.rpc.Status, and the request's metadata. */
export function inlinedResponse(outcome: LineOutcome | null, metadata: unknown, batch: Batch): Record<string, unknown> {
  const echo = metadata === null || metadata === undefined ? {} : { metadata };
  if (!outcome) {
    const cancelled = batch.status === 'cancelled';
    const code = cancelled ? 'batch_cancelled' : 'batch_expired';
    const message = cancelled ? 'The batch was cancelled before this request ran.' : 'The batch expired before this request ran.';
    return { error: { code: UNRUN_CODE[code], message }, ...echo };
  }
  if (outcome.kind === 'unrun') return { error: { code: UNRUN_CODE[outcome.code] ?? 2, message: outcome.message }, ...echo };
  if (succeeded(outcome)) return { response: outcome.body, ...echo };
  const code = RPC_CODE[outcome.statusCode] ?? (outcome.statusCode >= 500 ? 13 : 2);
  return { error: { code, message: errorMessage(outcome.body) }, ...echo };
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);

/**
 * A batch as Gemini's long-running Operation (`batches.get`): `metadata` is the GenerateContentBatch (its `state`,
 * `batchStats` as int64 strings, and once ended `output.inlinedResponses` in request order), `done` once it has ended.
 */
export function encodeGeminiBatch(b: Batch, inlined?: ReadonlyArray<Record<string, unknown>>) {
  const info = decodeBatchInfo(b.metadata);
  const ended = batchEnded(b.status);
  const unanswered = b.counts.total - b.counts.completed - b.counts.failed;
  const endTime = iso(b.completedAt ?? b.cancelledAt ?? b.expiredAt ?? b.failedAt);
  const times = [b.createdAt, b.inProgressAt, b.cancellingAt, b.finalizingAt, b.completedAt, b.cancelledAt, b.expiredAt, b.failedAt];
  const updateTime = new Date(Math.max(...times.map((t) => t?.getTime() ?? 0))).toISOString();
  const output = inlined ? { inlinedResponses: { inlinedResponses: inlined } } : undefined;
  const name = batchName(b.id);
  return {
    name,
    metadata: {
      '@type': GEMINI_BATCH_TYPE,
      model: info.model,
      displayName: info.displayName,
      ...(output ? { output } : {}),
      createTime: b.createdAt.toISOString(),
      ...(endTime ? { endTime } : {}),
      updateTime,
      batchStats: {
        requestCount: String(b.counts.total),
        successfulRequestCount: String(b.counts.completed),
        failedRequestCount: String(b.counts.failed + (ended ? unanswered : 0)),
        pendingRequestCount: String(ended ? 0 : unanswered),
      },
      state: STATE[b.status],
      name,
    },
    done: ended,
    ...(ended && output ? { response: { '@type': BATCH_OUTPUT_TYPE, ...output } } : {}),
  };
}

/** The inlined responses of an ended batch, in request order, each with its request's metadata. */
export async function inlinedResponses(
  batch: Batch,
  outcomes: AsyncIterable<{ customId: string; outcome: LineOutcome | null }>,
): Promise<Record<string, unknown>[]> {
  const { requestMetadata } = decodeBatchInfo(batch.metadata);
  const responses: Record<string, unknown>[] = [];
  // a line's custom_id is its request's 1-based index (batches.router.ts)
  for await (const { customId, outcome } of outcomes)
    responses.push(inlinedResponse(outcome, requestMetadata[Number(customId) - 1] ?? null, batch));
  return responses;
}
