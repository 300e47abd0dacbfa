import { batchFormatOf, outputLine, succeeded, UNRUN, type Batch, type LineOutcome } from '../batch';
import type { BatchStore, ClaimedLine } from '../ports/batch-store.port';
import type { Files } from './files';

/** What a line's request got from the gateway's own route, as a client would have seen it. */
export interface LineAnswer {
  statusCode: number;
  requestId: string;
  body: unknown;
}

/** Sends one line through the gateway's own route as the key that created the batch (server wiring: batches.ts). */
export interface LineDispatch {
  send(line: ClaimedLine, signal: AbortSignal): Promise<LineAnswer>;
}

export interface BatchRunnerOptions {
  owner: string;
  /** lines of one account in flight at once over every runner (BATCH_CONCURRENCY_PER_ACCOUNT) */
  perAccount: number;
  /** lines one runner takes per round */
  limit: number;
  leaseMs: number;
  /** a pause before each line (BATCH_LINE_DELAY_MS), so a check can watch a batch in progress */
  lineDelayMs: number;
  /** the first wait of a line the upstream or the key's limits slowed down; doubled per deferral, at most a minute */
  backoffMs: number;
}

export interface BatchRunnerDeps {
  batches: BatchStore;
  files: Files;
  dispatch: LineDispatch;
  now?: () => number;
  /** the bytes of a file being written, as the content store reads them (node's Readable.from) */
  readable(lines: AsyncIterable<string>): NodeJS.ReadableStream;
  /** a batch reached its end state (webhooks) */
  onFinished?(batch: Batch): void;
}

const NEVER = new AbortController().signal;
const MAX_BACKOFF_MS = 60_000;
const STALE_DEFERRALS_MS = 10 * MAX_BACKOFF_MS;

/** Codes of a budget refusal: the line ends in the error file without being sent (quota_exhausted). */
const QUOTA_CODES = new Set(['quota_exhausted', 'key_budget_exhausted']);

function errorCodeOf(body: unknown): string | undefined {
  const e = (body as { error?: { code?: unknown; type?: unknown } } | null)?.error;
  return typeof e?.code === 'string' ? e.code : typeof e?.type === 'string' ? e.type : undefined;
}

/**
 * The durable engine of batches: each round leases due lines (per-account concurrency over every instance), sends
 * each through the gateway's own route, stores its answer (a compare-and-set on the lease, so a line is answered
 * once), then writes the output and error files of the batches that are done. A line whose lease runs out (its
 * runner died mid-call) ends `interrupted`, never sent twice (the store's claim). Rate-limited lines wait
 * and come back without failing; a budget refusal ends the line with `quota_exhausted`.
 */
export class BatchRunner {
  private readonly now: () => number;
  /** deferrals so far of each waiting line, by batch then line; pruned when a line or its batch ends */
  private readonly deferrals = new Map<string, { at: number; lines: Map<number, number> }>();

  constructor(
    private readonly deps: BatchRunnerDeps,
    private readonly o: BatchRunnerOptions,
  ) {
    this.now = deps.now ?? Date.now;
  }

  /** One round; true when there was work (the caller polls again at once), false when idle. */
  async tick(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    const { batches } = this.deps;
    const now = new Date(this.now());
    const claimed = await batches.claimLines({
      owner: this.o.owner,
      now,
      leaseMs: this.o.leaseMs,
      limit: this.o.limit,
      perAccount: this.o.perAccount,
    });
    if (claimed.length) await this.runAll(claimed, signal);
    const finished = await batches.claimFinished({ owner: this.o.owner, now: new Date(this.now()), leaseMs: this.o.leaseMs, limit: 10 });
    for (const batch of finished) await this.finalize(batch);
    this.pruneStale();
    return claimed.length + finished.length > 0;
  }

  private async runAll(lines: ClaimedLine[], signal: AbortSignal): Promise<void> {
    const keepAlive = setInterval(
      () => void this.deps.batches.extendLeases(this.o.owner, lines, new Date(this.now() + this.o.leaseMs)).catch(() => undefined),
      Math.max(10, Math.floor(this.o.leaseMs / 3)),
    );
    keepAlive.unref?.();
    try {
      await Promise.all(lines.map((l) => this.run(l, signal)));
    } finally {
      clearInterval(keepAlive);
    }
  }

  private async run(line: ClaimedLine, signal: AbortSignal): Promise<void> {
    const { batches, dispatch } = this.deps;
    if (this.o.lineDelayMs > 0) await new Promise((r) => setTimeout(r, this.o.lineDelayMs));
    // shutting down before the line was sent: it goes back as it was
    if (signal.aborted) return this.deps.batches.deferLine(this.o.owner, line, new Date(this.now()));
    let answer: LineAnswer;
    try {
      // a line in flight finishes even when the gateway is stopping: cut short, it could neither be answered nor sent again
      answer = await dispatch.send(line, NEVER);
    } catch {
      return this.defer(line); // the gateway's own route did not answer: nothing was sent
    }
    const code = errorCodeOf(answer.body);
    if (answer.statusCode === 429 && !QUOTA_CODES.has(code ?? '')) return this.defer(line);
    this.forget(line);
    const outcome: LineOutcome =
      code && QUOTA_CODES.has(code)
        ? { kind: 'unrun', code: 'quota_exhausted', message: 'The budget of the account or key was used up before this request ran.' }
        : { kind: 'answered', statusCode: answer.statusCode, requestId: answer.requestId, body: answer.body };
    await batches.finishLine(this.o.owner, line, outcome);
  }

  /** lines waiting to come back after a deferral (the backoff's memory) */
  get deferredLines(): number {
    let n = 0;
    for (const b of this.deferrals.values()) n += b.lines.size;
    return n;
  }

  private async defer(line: ClaimedLine): Promise<void> {
    const b = this.deferrals.get(line.batchId) ?? { at: 0, lines: new Map<number, number>() };
    const n = (b.lines.get(line.line) ?? 0) + 1;
    b.lines.set(line.line, n);
    b.at = this.now();
    this.deferrals.set(line.batchId, b);
    const wait = Math.min(MAX_BACKOFF_MS, this.o.backoffMs * 2 ** (n - 1));
    await this.deps.batches.deferLine(this.o.owner, line, new Date(this.now() + wait));
  }

  private forget(line: ClaimedLine): void {
    const b = this.deferrals.get(line.batchId);
    if (b?.lines.delete(line.line) && !b.lines.size) this.deferrals.delete(line.batchId);
  }

  /**
   * A batch that ended on another instance, or whose waiting lines another runner took, leaves its entries here: a
   * deferred line is due within a minute, so a batch with no deferral for ten is dropped (at worst a line's backoff
   * starts again at `backoffMs`).
   */
  private pruneStale(): void {
    const cutoff = this.now() - STALE_DEFERRALS_MS;
    for (const [id, b] of this.deferrals) if (b.at < cutoff) this.deferrals.delete(id);
  }

  /** Writes the output file (answered 2xx) and the error file (the rest), in line order, then ends the batch. */
  private async finalize(batch: Batch): Promise<void> {
    this.deferrals.delete(batch.id);
    const now = this.now();
    const unanswered = batch.counts.completed + batch.counts.failed < batch.counts.total;
    const unrun = batch.cancellingAt ? UNRUN.cancelled : UNRUN.expired;
    const status: Batch['status'] = batch.cancellingAt ? 'cancelled' : unanswered ? 'expired' : 'completed';
    const write = async (ok: boolean, name: string): Promise<string | null> => {
      const lines = this.fileLines(batch.id, ok, unrun);
      const first = await lines.next();
      if (first.done) return null;
      const source = this.deps.readable(
        (async function* () {
          yield `${first.value}\n`;
          for await (const l of { [Symbol.asyncIterator]: () => lines }) yield `${l}\n`;
        })(),
      );
      const file = await this.deps.files.write(
        { accountId: batch.accountId },
        { filename: `${batch.id}_${name}.jsonl`, purpose: 'batch_output', source },
      );
      return file.id;
    };
    // an Anthropic batch's results are read from its lines (GET …/results), not from files
    const files = batchFormatOf(batch.id) === 'openai';
    const outputFileId = files ? await write(true, 'output') : null;
    const errorFileId = files ? await write(false, 'error') : null;
    if (await this.deps.batches.finish(this.o.owner, batch.id, { status, outputFileId, errorFileId }, new Date(now))) {
      const ended = await this.deps.batches.get(batch.accountId, batch.id);
      if (ended) this.deps.onFinished?.(ended);
    }
  }

  private async *fileLines(batchId: string, ok: boolean, unrun: LineOutcome): AsyncGenerator<string> {
    for await (const { customId, outcome } of this.deps.batches.outcomes(batchId)) {
      const o = outcome ?? unrun;
      if (succeeded(o) === ok) yield JSON.stringify(outputLine(customId, o));
    }
  }
}
