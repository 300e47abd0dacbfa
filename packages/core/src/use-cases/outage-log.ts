import type { WorkerLog } from './video-task-driver';

/**
 * Background work that retries on a timer (claim rounds, housekeeping) fails on every try while a dependency is
 * down. This logs such a run of failures once at warn when it starts and once when a try succeeds again, with how
 * many failed, instead of a line per try.
 */
export class OutageLog {
  private outage: { since: number; failures: number } | null = null;

  constructor(
    private readonly log: WorkerLog,
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  failed(e: unknown, fields: Record<string, unknown> = {}): void {
    if (this.outage) {
      this.outage.failures++;
      return;
    }
    this.outage = { since: this.now(), failures: 1 };
    this.log('warn', `${this.what}: failing, retrying`, { ...fields, error: (e as Error)?.message ?? String(e) });
  }

  succeeded(): void {
    if (!this.outage) return;
    this.log('warn', `${this.what}: succeeding again`, { failures: this.outage.failures, outageMs: this.now() - this.outage.since });
    this.outage = null;
  }
}
