/**
 * Batches: many requests of one endpoint, answered offline by the durable engine (use-cases/batch-runner.ts), each
 * line a routed call as a live request makes it. This file holds the batch and its lines as the core sees them,
 * whatever the wire format (OpenAI's batch object, Anthropic's message batch).
 */
import { newId } from './auth';
import type { ModelKind } from './catalogue';

export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

/** The endpoints a batch's lines may call (a wire format's paths): of which batch format, serving which kind of model. */
export type BatchEndpoints = Readonly<Record<string, { format: BatchFormat; kind: ModelKind }>>;

export const BATCH_LIMITS = Object.freeze({
  /** OpenAI's limit per batch input file */
  maxLines: 50_000,
  customIdLength: 64,
  /** a failed validation lists at most this many line errors */
  maxErrors: 1000,
  completionWindowMs: 24 * 3600 * 1000,
});

/** A refused line of a batch's input, as OpenAI lists it (`line` 1-based). */
export interface BatchLineError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

export interface BatchUsage {
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

export interface Batch {
  id: string;
  accountId: string;
  /** the key that created it: every line runs as this key, as it is when the line runs */
  keyId: string;
  endpoint: string;
  inputFileId: string;
  completionWindow: string;
  status: BatchStatus;
  metadata: Record<string, string> | null;
  errors: BatchLineError[] | null;
  outputFileId: string | null;
  errorFileId: string | null;
  createdAt: Date;
  inProgressAt: Date | null;
  finalizingAt: Date | null;
  completedAt: Date | null;
  failedAt: Date | null;
  expiredAt: Date | null;
  cancellingAt: Date | null;
  cancelledAt: Date | null;
  expiresAt: Date;
  counts: { total: number; completed: number; failed: number };
  usage: BatchUsage;
}

/** One request of a batch, as validated. */
export interface BatchLineInput {
  line: number;
  customId: string;
  body: Record<string, unknown>;
}

/**
 * How a line ended. `answered`: the endpoint's own answer (2xx completed, else failed: the error file); `unrun`: the
 * line never got an answer (`quota_exhausted`, `batch_cancelled`, `batch_expired`, `interrupted`).
 */
export type LineOutcome =
  { kind: 'answered'; statusCode: number; requestId: string; body: unknown } | { kind: 'unrun'; code: string; message: string };

export const UNRUN = Object.freeze({
  cancelled: { kind: 'unrun', code: 'batch_cancelled', message: 'The batch was cancelled before this request ran.' },
  expired: { kind: 'unrun', code: 'batch_expired', message: 'The batch expired before this request ran.' },
  interrupted: {
    kind: 'unrun',
    code: 'interrupted',
    message: 'The gateway stopped while this request was in flight; it was not sent again, so it cannot be answered or charged twice.',
  },
} satisfies Record<string, LineOutcome>);

/** How a batch was asked for: its id's prefix (OpenAI's `batch_`, Anthropic's `msgbatch_`, Gemini's `gembatch_`) says which. */
export type BatchFormat = 'openai' | 'anthropic' | 'gemini';
const PREFIX: Readonly<Record<BatchFormat, string>> = { openai: 'batch_', anthropic: 'msgbatch_', gemini: 'gembatch_' };
export const batchFormatOf = (id: string): BatchFormat =>
  id.startsWith(PREFIX.anthropic) ? 'anthropic' : id.startsWith(PREFIX.gemini) ? 'gemini' : 'openai';
export const batchIdPrefix = (format: BatchFormat): string => PREFIX[format];

/** The format's prefix, then the creation time (base 36, fixed width) and randomness: ids sort by creation. */
export const newBatchId = (now: Date, format: BatchFormat = 'openai'): string =>
  `${PREFIX[format]}${now.getTime().toString(36).padStart(9, '0')}${newId('', 12)}`;
export const newBatchRequestId = (): string => newId('batch_req_', 12);

export const emptyBatchUsage = (): BatchUsage => ({ inputTokens: 0, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0 });

/** A line's outcome as an output or error file line (OpenAI's shape). */
export function outputLine(customId: string, outcome: LineOutcome): Record<string, unknown> {
  const id = newBatchRequestId();
  if (outcome.kind === 'unrun') return { id, custom_id: customId, response: null, error: { code: outcome.code, message: outcome.message } };
  return {
    id,
    custom_id: customId,
    response: { status_code: outcome.statusCode, request_id: outcome.requestId, body: outcome.body },
    error: null,
  };
}

/** The ends a batch announces to the account's webhook endpoints, as OpenAI's event types. */
const ENDED_EVENTS: Partial<Record<BatchStatus, string>> = {
  completed: 'batch.completed',
  failed: 'batch.failed',
  expired: 'batch.expired',
  cancelled: 'batch.cancelled',
};

/** The webhook event of a batch that reached `status` (OpenAI's payload: the batch's id only), or undefined. */
export function batchEvent(batchId: string, status: BatchStatus, at: Date): { id: string; type: string; body: string } | undefined {
  const type = ENDED_EVENTS[status];
  if (!type) return undefined;
  const id = newId('evt_');
  return {
    id,
    type,
    body: JSON.stringify({ id, object: 'event', type, created_at: Math.floor(at.getTime() / 1000), data: { id: batchId } }),
  };
}

/** A batch that will change no more: its lines are all accounted for (its results can be read, it can be deleted). */
const ENDED = new Set<BatchStatus>(['completed', 'failed', 'expired', 'cancelled']);
export const batchEnded = (status: BatchStatus): boolean => ENDED.has(status);

/** A line its endpoint answered 2xx: the output file; everything else goes to the error file. */
export const succeeded = (o: LineOutcome): boolean => o.kind === 'answered' && o.statusCode >= 200 && o.statusCode < 300;

/** The lines of a text stream (UTF-8), without their `\n` or `\r\n`; a last line without a newline included. */
export async function* textLines(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of source) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, at).replace(/\r$/, '');
      rest = rest.slice(at + 1);
    }
  }
  rest += decoder.decode();
  if (rest) yield rest.replace(/\r$/, '');
}

/**
 * Reads a batch input file (JSONL) line by line: each must parse, carry a unique `custom_id` of 1–64 characters, use
 * `POST` and the batch's endpoint as its `url`, and a JSON object `body` naming a `model`. Collects the lines and the
 * line errors (a duplicate names the later line; at most BATCH_LIMITS.maxErrors); blank lines are skipped, their
 * numbers still counted. `refuse` adds an error the caller found (a model the key may not use, a body its endpoint refuses).
 */
export class BatchLineReader {
  readonly lines: BatchLineInput[] = [];
  readonly errors: BatchLineError[] = [];
  private readonly seen = new Set<string>();
  private n = 0;

  constructor(readonly endpoint: string) {}

  /** The next line of the file; its parsed request, or undefined when it is blank or refused. */
  push(raw: string): BatchLineInput | undefined {
    const n = ++this.n;
    if (!raw.trim()) return undefined;
    let row: unknown;
    try {
      row = JSON.parse(raw);
    } catch {
      return this.refuse(n, 'invalid_json_line', 'This line is not valid JSON.');
    }
    return this.pushRow(row, n);
  }

  /** The next request, already parsed: a line of the file, or an inline request (its method and url filled in). */
  pushRow(row: unknown, n = ++this.n): BatchLineInput | undefined {
    this.n = Math.max(this.n, n);
    if (!row || typeof row !== 'object' || Array.isArray(row))
      return this.refuse(n, 'invalid_json_line', 'Each line must be a JSON object.');
    const { custom_id: customId, method, url, body } = row as Record<string, unknown>;
    if (typeof customId !== 'string' || customId.length < 1 || customId.length > BATCH_LIMITS.customIdLength)
      return this.refuse(
        n,
        'invalid_custom_id',
        `"custom_id" must be a string of 1 to ${BATCH_LIMITS.customIdLength} characters.`,
        'custom_id',
      );
    if (this.seen.has(customId))
      return this.refuse(n, 'duplicate_custom_id', `The custom_id ${JSON.stringify(customId)} is used by an earlier line.`, 'custom_id');
    this.seen.add(customId);
    if (method !== 'POST') return this.refuse(n, 'invalid_method', '"method" must be "POST".', 'method');
    if (url !== this.endpoint) return this.refuse(n, 'mismatched_url', `"url" must be the batch's endpoint, ${this.endpoint}.`, 'url');
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return this.refuse(n, 'invalid_body', '"body" must be a JSON object.', 'body');
    if (typeof (body as Record<string, unknown>).model !== 'string')
      return this.refuse(n, 'missing_model', 'The request body needs a "model".', 'body.model');
    const line = { line: n, customId, body: body as Record<string, unknown> };
    this.lines.push(line);
    return line;
  }

  refuse(line: number | null, code: string, message: string, param: string | null = null): undefined {
    if (this.errors.length < BATCH_LIMITS.maxErrors) this.errors.push({ code, message, param, line });
    return undefined;
  }

  /** The file's end: the batch-wide errors (too many requests, none at all) join the line errors. */
  finish(maxLines: number = BATCH_LIMITS.maxLines): BatchLineError[] {
    if (this.lines.length > maxLines)
      this.refuse(null, 'too_many_requests', `A batch holds at most ${maxLines} requests; this one has ${this.lines.length}.`);
    if (this.lines.length === 0 && this.errors.length === 0) this.refuse(null, 'empty_file', 'The input file holds no requests.');
    return this.errors;
  }
}
