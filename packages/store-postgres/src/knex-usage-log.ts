import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { UsageLog, UsageRow } from '@gateway/core';
import { addCredits } from './credit-quota-sql';
import { rollUpUsage } from './usage-rollup';
import { UsageSpool, type SpoolEntry } from './usage-spool';
import { insertUsageRows } from './usage-insert-sql';

export interface UsageLogOptions {
  flushMs?: number;
  maxBatch?: number;
  /** DATA_DIR/usage-spool: rows wait there durably until written (without it they wait in memory only) */
  spoolDir?: string;
  /** how long after its owner's last renewal a lease from another PID namespace or host counts as gone (SpoolLease) */
  spoolLeaseMs?: number;
  /** a batch could not be written: called once per batch (not per retry) with its rows */
  onError?: (e: unknown, rows: UsageRow[]) => void;
  /** every waiting row is written again after a failure */
  onRecovered?: (rows: number) => void;
  /** the spool could not be written (a full or read-only disk): rows then wait in memory only */
  onSpoolError?: (e: unknown) => void;
  /** first retry after a failure; doubles up to 10 s */
  retryMs?: number;
  /** the daily rollup job runs this long after a batch is written (and after each recovery sweep); 0: never */
  rollupMs?: number;
  /** a rollup run failed: nothing is lost (the rows wait above the watermark, counted from the raw rows) */
  onRollupError?: (e: unknown) => void;
}

interface Batch {
  /** the spool segment holding the batch's rows (deleted once they are written) */
  file: string | null;
  rows: UsageRow[];
  reported: boolean;
}

/** What crash recovery makes of a priced stream that never ended: its pending row, settled as interrupted. */
export function interruptedRow(pending: UsageRow): UsageRow {
  return { ...pending, status: 'interrupted', httpStatus: 499, errorCode: 'gateway_stopped', credits: pending.charge ?? pending.credits };
}

/**
 * Writes usage rows in batches, off the request path, and never drops one: every row is first appended to the spool
 * (DATA_DIR/usage-spool); a batch the database refused waits (spool segment kept, rows in memory) and is retried in
 * order until written. Each row has a stable rowId and the insert ignores a row already there, so a replay writes it
 * once; credits a row still owes (`charge`) are charged in the row's transaction, once per rowId (credit-quota-sql).
 * Segments left by a process that is provably gone are replayed by recover() (at start and periodically).
 */
export class KnexUsageLog implements UsageLog {
  private buffer: UsageRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private inflight: Promise<void> = Promise.resolve();
  private readonly waiting: Batch[] = [];
  /** priced streams admitted and not yet ended, by rowId: carried into each new segment */
  private readonly open = new Map<string, UsageRow>();
  private readonly spool: UsageSpool | undefined;
  private failing = false;
  private recovered = 0;
  private spoolBroken = false;
  private lastError: unknown;
  private recoveryTimer: NodeJS.Timeout | null = null;
  private rollupTimer: NodeJS.Timeout | null = null;
  /** stopped: a rollup run still going when the store closes fails unreported (the next instance's runs catch up) */
  private stopped = false;
  private retryMs: number;

  constructor(
    private readonly db: Knex,
    private readonly opts: UsageLogOptions = {},
  ) {
    this.spool = opts.spoolDir
      ? new UsageSpool(opts.spoolDir, opts.spoolLeaseMs, (e) => (e ? this.spoolFailed(e) : (this.spoolBroken = false)))
      : undefined;
    this.retryMs = opts.retryMs ?? 1000;
  }

  /** Rows not yet in the database (buffered or waiting after a failed write). */
  pendingRows(): number {
    return this.buffer.length + this.waiting.reduce((n, b) => n + b.rows.length, 0);
  }

  record(row: UsageRow): void {
    const r = stamped(row);
    this.open.delete(r.rowId);
    this.toSpool({ row: r });
    this.buffer.push(r);
    if (this.buffer.length >= (this.opts.maxBatch ?? 500)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.opts.flushMs ?? 200);
      this.timer.unref();
    }
  }

  pending(row: UsageRow): void {
    const r = stamped(row);
    this.open.set(r.rowId, r);
    this.toSpool({ pending: r }, true);
  }

  /** The spool must never fail a request: a full or read-only disk is reported (once) and the row kept in memory. */
  private toSpool(entry: SpoolEntry | null, sync = false): void {
    if (!this.spool) return;
    try {
      if (entry) this.spool.append(entry);
      if (!sync) return;
      this.spool.sync();
      this.spoolBroken = false;
    } catch (e) {
      this.spoolFailed(e);
    }
  }

  private spoolFailed(e: unknown): void {
    if (!this.spoolBroken) this.opts.onSpoolError?.(e);
    this.spoolBroken = true;
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.length > 0) {
      let file: string | null = null;
      try {
        file = this.spool?.rotate() ?? null;
      } catch (e) {
        this.opts.onSpoolError?.(e);
      }
      // the closed segment goes once its rows are written: streams still open are carried into the next one first
      for (const p of this.open.values()) this.toSpool({ pending: p });
      if (this.open.size) this.toSpool(null, true);
      const batch = { file, rows: this.buffer, reported: this.failing };
      // while the database refuses writes a new batch waits behind the others: reported now, once
      if (this.failing) this.opts.onError?.(this.lastError, batch.rows);
      this.waiting.push(batch);
      this.buffer = [];
    }
    // while the database refuses writes only the retry timer tries again: a flush (or a shutdown) never waits on it
    return this.failing ? this.inflight : this.drain();
  }

  /**
   * Replays what processes that are gone left in the spool: their rows, and their priced streams that never ended
   * (settled from the pending row: the input and the credits it estimated). Claimed segments become one segment of
   * this process before they are deleted, so a crash here loses nothing either.
   */
  async recover(): Promise<void> {
    if (!this.spool) return;
    for (const files of this.spool.claimOrphans()) {
      const rows = new Map<string, UsageRow>();
      const pendings = new Map<string, UsageRow>();
      for (const file of files) for (const e of this.spool.read(file)) collect(e, rows, pendings);
      for (const [id, p] of pendings) if (!rows.has(id)) rows.set(id, interruptedRow(p));
      for (const r of rows.values()) this.spool.append({ row: r });
      // on disk for good before the claimed segments go
      this.spool.sync();
      const file = this.spool.rotate();
      for (const f of files) await this.spool.remove(f);
      if (rows.size) this.waiting.unshift({ file, rows: [...rows.values()], reported: false });
      else await this.spool.remove(file);
    }
    return this.drain();
  }

  /** Replays orphaned segments now and every `everyMs` (a sibling worker killed and restarted leaves some). */
  startRecovery(everyMs = 30000, onError?: (e: unknown) => void): void {
    const run = () => void this.recover().catch((e: unknown) => onError?.(e));
    run();
    this.recoveryTimer = setInterval(run, everyMs);
    this.recoveryTimer.unref();
  }

  /** Stops the timers; what is still waiting stays in the spool, released to whichever process starts or sweeps next. */
  stop(): void {
    this.spool?.release();
    if (this.recoveryTimer) clearInterval(this.recoveryTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.rollupTimer) clearTimeout(this.rollupTimer);
    this.stopped = true;
    this.retryTimer = null;
    this.recoveryTimer = null;
    this.rollupTimer = null;
  }

  /** Writes waiting batches in order; stops at the first failure and retries later. */
  private drain(): Promise<void> {
    this.inflight = this.inflight.then(async () => {
      while (this.waiting.length) {
        const batch = this.waiting[0]!;
        try {
          await this.write(batch.rows);
        } catch (e) {
          this.lastError = e;
          if (!batch.reported) this.opts.onError?.(e, batch.rows);
          batch.reported = true;
          this.failing = true;
          this.scheduleRetry();
          return;
        }
        // the segment goes before the batch leaves `waiting`: no row pending means no segment left for it either
        await this.spool?.remove(batch.file);
        this.waiting.shift();
        if (this.failing) this.recovered += batch.rows.length;
      }
      if (this.failing) {
        this.failing = false;
        this.retryMs = this.opts.retryMs ?? 1000;
        this.opts.onRecovered?.(this.recovered);
        this.recovered = 0;
      }
      this.scheduleRollup();
    });
    return this.inflight;
  }

  /**
   * Rows reach usage_daily through the rollup job (usage-rollup.ts), run off the write path by one shared timer; runs
   * of other instances and other writers' rows (task admission, settlement) are covered by the same watermark.
   */
  private scheduleRollup(): void {
    const ms = this.opts.rollupMs ?? 2000;
    if (this.rollupTimer || ms <= 0) return;
    this.rollupTimer = setTimeout(() => {
      void rollUpUsage(this.db)
        .catch((e: unknown) => void (this.stopped || this.opts.onRollupError?.(e)))
        .finally(() => (this.rollupTimer = null));
    }, ms);
    this.rollupTimer.unref();
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.drain();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 10000);
  }

  private async write(rows: UsageRow[]): Promise<void> {
    const plain = rows.filter((r) => !owes(r));
    if (plain.length) await insertUsageRows(this.db, plain);
    for (const r of rows.filter(owes)) {
      await this.db.transaction(async (trx) => {
        await insertUsageRows(trx, [r]);
        const refs = { requestId: r.requestId, usageRowId: r.rowId };
        await addCredits(trx, { accountId: r.accountId!, keyId: r.keyId ?? undefined }, r.charge!, 'text', refs, new Date());
      });
    }
  }
}

/** The row with the id and time it is written under (the caller's, else new ones). */
const stamped = (row: UsageRow) => ({ ...row, rowId: row.rowId ?? randomUUID(), createdAt: row.createdAt ?? new Date() });
/** Credits the row still owes: charged with it, in its transaction. */
const owes = (r: UsageRow) => !!(r.charge && r.charge > 0 && r.accountId);

function collect(e: SpoolEntry, rows: Map<string, UsageRow>, pendings: Map<string, UsageRow>): void {
  if ('row' in e && e.row.rowId) rows.set(e.row.rowId, e.row);
  else if ('pending' in e && e.pending.rowId) pendings.set(e.pending.rowId, e.pending);
}
