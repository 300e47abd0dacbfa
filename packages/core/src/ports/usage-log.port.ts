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
  latencyMs?: number;
  ttftMs?: number | null;
  taskId?: string | null;
  idempotencyKey?: string | null;
  provider?: string | null;
  /** the provider's own id for the call (its request-id header), when it sent one */
  upstreamRequestId?: string | null;
  attempts?: number;
  warnings?: string[];
  /** what the request cost, in credits */
  credits?: number;
  /** video tasks: what was asked for and (settlement rows) what was delivered */
  video?: UsageVideo | null;
  createdAt?: Date;
}

export interface UsageLog {
  /** Must not throw; may buffer. */
  record(row: UsageRow): void;
  /** Writes what is buffered. */
  flush(): Promise<void>;
  /** A row the store already wrote in its own transaction (task admission): seen by observers, not written again. */
  written?(row: UsageRow): void;
}
