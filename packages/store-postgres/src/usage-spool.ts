import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { UsageRow } from '@gateway/core';
import { LEASE, SpoolLease } from './spool-lease';

/** One line of a spool segment: a usage row to write, or a priced stream's pending row (written if it never ends). */
export type SpoolEntry = { row: UsageRow } | { pending: UsageRow };

/** A segment's name: creation time, owning process and its random token, sequence (sorting by name is time order). */
const NAME = /^(\d{15})-(\d+)-([0-9a-f]+)-([\w.]+)\.jsonl$/;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Spools with lines queued: written when the process exits before their turn ends. */
const live = new Set<UsageSpool>();
process.on('exit', () => {
  for (const spool of live)
    try {
      spool.write();
    } catch {
      // exiting: nothing left to tell
    }
});

/** How long a lease outlives its last renewal: longer than any stall of a live process's event loop. */
export const SPOOL_LEASE_MS = 60_000;

/**
 * The usage log's write-ahead spool under DATA_DIR/usage-spool: every usage row is appended to this process's current
 * segment (the rows of one event-loop turn in one write at its end, so a SIGKILL loses at most that turn's; a priced
 * stream's pending row at once, synced) as it is buffered for the database; a
 * segment is closed at each flush (synced in the background) and deleted once all its rows are in the database. Directory 0700,
 * files 0600. Segments of a process that is provably gone (killed, or stopped past its grace period: see SpoolLease)
 * are claimed by rename, so two live processes never replay the same one, nor one the other's live segment.
 */
export class UsageSpool {
  /** this process's identity in segment and lease names: random, since a pid repeats across containers and hosts */
  private readonly token = randomBytes(8).toString('hex');
  private readonly lease: SpoolLease;
  private seq = 0;
  private fd: number | null = null;
  private current: string | null = null;
  /** lines appended this turn, not yet written */
  private queued: string[] = [];

  constructor(
    readonly dir: string,
    leaseMs = SPOOL_LEASE_MS,
    /** told after each turn's write: the error of one that failed (a full or read-only disk), or nothing */
    private readonly onTurnWritten?: (e?: unknown) => void,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    this.lease = new SpoolLease(dir, this.token, leaseMs);
  }

  /**
   * Queues one entry for the current segment: the entries of one event-loop turn reach the kernel in one write at
   * the turn's end (issue 40: one syscall per group, not per row), or at once when `sync`, `rotate` or the process's
   * exit comes first. A SIGKILL loses at most the entries of the turn it interrupts (docs/reliability.md).
   */
  append(entry: SpoolEntry): void {
    if (this.queued.push(`${JSON.stringify(entry)}\n`) > 1) return;
    live.add(this);
    setImmediate(() => {
      try {
        this.write();
        this.onTurnWritten?.();
      } catch (e) {
        this.onTurnWritten?.(e);
      }
    });
  }

  /** Writes the queued entries to the current segment (opened on first use, under this process's lease). */
  write(): void {
    if (!this.queued.length) return;
    // taken first: lines a failed write could not take are not retried (their rows wait in the caller's memory)
    const text = this.queued.join('');
    this.queued = [];
    live.delete(this);
    if (this.fd === null) {
      this.lease.hold();
      this.current = path.join(this.dir, `${pad(Date.now(), 15)}-${process.pid}-${this.token}-${pad(this.seq++, 8)}.jsonl`);
      this.fd = fs.openSync(this.current, 'a', 0o600);
    }
    fs.writeSync(this.fd, text);
  }

  /** Makes what was appended survive a power cut too (a priced stream's pending row, each closed segment). */
  sync(): void {
    this.write();
    if (this.fd !== null) fs.fsyncSync(this.fd);
  }

  /**
   * Closes the current segment for appends: its path, or null when nothing was appended since the last rotation. Its
   * rows reached the kernel as they were appended (a SIGKILL loses none); the fsync that makes them survive a power
   * cut, and the close, run on libuv's thread pool, so a flush never blocks the event loop on the disk.
   */
  rotate(): string | null {
    this.write();
    if (this.fd === null) return null;
    const fd = this.fd;
    fs.fsync(fd, () => fs.close(fd, () => undefined));
    const done = this.current;
    this.fd = null;
    this.current = null;
    return done;
  }

  /**
   * Deletes a segment whose rows are all in the database, off the event loop. Never fails: a segment left behind is
   * replayed later, and its rows' ids make the replay write nothing twice.
   */
  async remove(file: string | null): Promise<void> {
    // unlink, not rm: rm's force option costs an lstat and a walk per file
    if (file) await fs.promises.unlink(file).catch(() => undefined);
  }

  /** Gives up this process's lease at a stop: what it leaves in the spool is then replayed by the next one at once. */
  release(): void {
    this.lease.release();
  }

  /**
   * Segments whose owner is provably gone (SpoolLease.ownerGone), claimed by this process (renamed to its name),
   * grouped by the owner that wrote them and in the order they were written; then the leases such owners left.
   */
  claimOrphans(): string[][] {
    const owners = new Map<string, string[]>();
    const gone = new Map<string, boolean>();
    const ownerGone = (token: string) => gone.get(token) ?? gone.set(token, this.lease.ownerGone(token)).get(token)!;
    const names = fs.readdirSync(this.dir).sort();
    for (const name of names) {
      const m = NAME.exec(name);
      if (!m) continue;
      const [, at, , token, rest] = m as unknown as [string, string, string, string, string];
      if (token === this.token || !ownerGone(token)) continue;
      const claimed = path.join(this.dir, `${at}-${process.pid}-${this.token}-${rest}.${token}.jsonl`);
      try {
        fs.renameSync(path.join(this.dir, name), claimed);
      } catch {
        continue; // another process claimed it first
      }
      owners.set(token, [...(owners.get(token) ?? []), claimed]);
    }
    for (const name of names) {
      const token = LEASE.exec(name)?.[1];
      if (token && token !== this.token && ownerGone(token)) this.lease.forget(token);
    }
    return [...owners.values()];
  }

  /** A segment's entries; a line torn by a crash mid-write is skipped. */
  read(file: string): SpoolEntry[] {
    const entries: SpoolEntry[] = [];
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        entries.push(reviveDates(JSON.parse(line) as SpoolEntry));
      } catch {
        // torn tail
      }
    }
    return entries;
  }
}

function reviveDates(e: SpoolEntry): SpoolEntry {
  const row = 'row' in e ? e.row : e.pending;
  if (row.createdAt) row.createdAt = new Date(row.createdAt);
  return e;
}
