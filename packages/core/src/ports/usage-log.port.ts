import type { GuardrailHit } from '../guardrails/guardrail';

/** A video's length and resolution, as requested or as delivered. */
export interface VideoShape {
  seconds: number;
  resolution: string;
}

/** A video task's requested shape and, on the row that settled its charge, the delivered one. */
export interface UsageVideo {
  requested: VideoShape;
  delivered?: VideoShape | null;
}

/** One row per accepted (or refused) request or task. */
export interface UsageRow {
  /**
   * The row's stable unique id: a row written twice (replayed from the spool after an outage or a crash) is stored
   * once. The usage log assigns one when the caller did not; a priced stream's pending row and its final row share it.
   */
  rowId?: string;
  requestId: string;
  accountId: string | null;
  keyId: string | null;
  model: string | null;
  format: string;
  /** 'ok', 'error', or a task status */
  status: string;
  httpStatus: number;
  errorCode?: string | null;
  inputTokens?: number;
  outputTokens?: number;
  /** input tokens read from the provider's prompt cache (a subset of inputTokens) */
  cachedTokens?: number;
  /** input tokens written to the provider's prompt cache (a subset of inputTokens) */
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  /** speech: characters of input text */
  characters?: number;
  /** transcription and translation: seconds of audio */
  audioSeconds?: number;
  /** rerank: search units (one per query of up to 100 documents) */
  searchUnits?: number;
  /** the token counts are the gateway's own estimate: the upstream reported none */
  estimated?: boolean;
  /** the answer came from the gateway's response cache (no upstream call): priced at the model's cacheHitMultiplier */
  cacheHit?: boolean;
  latencyMs?: number;
  ttftMs?: number | null;
  taskId?: string | null;
  idempotencyKey?: string | null;
  /** a batch line's row: its batch */
  batchId?: string | null;
  provider?: string | null;
  /** the provider's own id for the call (its request-id header), when it sent one */
  upstreamRequestId?: string | null;
  attempts?: number;
  warnings?: string[];
  /** what the request cost, in credits */
  credits?: number;
  /** video tasks: what was asked for and (settlement rows) what was delivered */
  video?: UsageVideo | null;
  /**
   * Credits owed but not yet charged (the charge on the request path failed, or crash recovery settles the row):
   * charged with the row when it is written, once per rowId, however often the row is replayed.
   */
  charge?: number;
  /** an MCP tool call: the bytes of the result it answered */
  bytes?: number;
  /** the guardrails that matched (id, mode, phase, action), never what they matched (docs/guardrails.md) */
  guardrails?: GuardrailHit[] | null;
  createdAt?: Date;
}

export interface UsageLog {
  /** Must not throw; may buffer. */
  record(row: UsageRow): void;
  /** Writes what is buffered. */
  flush(): Promise<void>;
  /** A row the store already wrote in its own transaction (task admission): seen by observers, not written again. */
  written?(row: UsageRow): void;
  /**
   * A priced stream was admitted: its row (with its rowId, the status `pending`, the estimated input and its
   * credits in `charge`) is kept durably before the first byte is sent. The final row recorded with the same rowId
   * supersedes it; after a crash, recovery writes it (status `interrupted`) and charges what it holds.
   */
  pending?(row: UsageRow): void;
}
