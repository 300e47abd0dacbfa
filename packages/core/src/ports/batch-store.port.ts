import type { Batch, BatchLineInput, LineOutcome } from '../batch';

/** A line leased to one runner until `leaseUntil`. */
export interface ClaimedLine {
  batchId: string;
  line: number;
  customId: string;
  body: Record<string, unknown>;
  /** sends so far, this one included */
  attempts: number;
  accountId: string;
  keyId: string;
  endpoint: string;
}

export interface BatchListQuery {
  /** only ids of this prefix (one batch format's) */
  prefix: string;
  /** ids older than this one (newest first) */
  after?: string;
  /** ids newer than this one: the `limit` closest to it (the page just before it), still newest first */
  before?: string;
  limit: number;
}

/**
 * Batches and their lines. Every change of a line is a compare-and-set on its lease, so two runners never both
 * answer it; the counts a batch shows are read from its lines, never kept twice.
 */
export interface BatchStore {
  /** the batch and its lines, in one transaction (a failed validation stores the batch alone) */
  create(batch: Batch, lines: readonly BatchLineInput[]): Promise<void>;
  /** null when missing or another account's */
  get(accountId: string, id: string): Promise<Batch | null>;
  list(accountId: string, query: BatchListQuery): Promise<Batch[]>;
  /** deletes the batch and its lines */
  delete(accountId: string, id: string): Promise<void>;
  /** in_progress → cancelling; the batch as it is after (null when missing) */
  requestCancel(accountId: string, id: string, at: Date): Promise<Batch | null>;
  /**
   * Leases up to `limit` due pending lines of running batches (not past their window), never more than `perAccount`
   * running at once for one account over every runner. First, a line whose lease ran out (its runner died mid-call)
   * ends as `interrupted`: it is never sent twice.
   */
  claimLines(opts: { owner: string; now: Date; leaseMs: number; limit: number; perAccount: number }): Promise<ClaimedLine[]>;
  /** keeps the leases of lines still running; lines no longer held are left alone */
  extendLeases(owner: string, lines: ReadonlyArray<Pick<ClaimedLine, 'batchId' | 'line'>>, until: Date): Promise<void>;
  /** a running line leased by `owner` → its outcome; false when the lease was lost */
  finishLine(owner: string, line: Pick<ClaimedLine, 'batchId' | 'line'>, outcome: LineOutcome): Promise<boolean>;
  /** a running line leased by `owner` → pending again, not before `notBefore` (the upstream asked to slow down) */
  deferLine(owner: string, line: Pick<ClaimedLine, 'batchId' | 'line'>, notBefore: Date): Promise<void>;
  /**
   * Batches whose lines are all answered, cancelled batches with none running, and batches past their window with
   * none running: each moves to `finalizing` for `owner` (or is taken over when an earlier finalizer's lease ran out).
   */
  claimFinished(opts: { owner: string; now: Date; leaseMs: number; limit: number }): Promise<Batch[]>;
  /** every line in order with its outcome (null: never answered) */
  outcomes(batchId: string): AsyncIterable<{ customId: string; outcome: LineOutcome | null }>;
  /** a finalizing batch of `owner` → its end state, files and time; false when another finalizer took it over */
  finish(owner: string, batchId: string, end: Pick<Batch, 'status' | 'outputFileId' | 'errorFileId'>, at: Date): Promise<boolean>;
}
