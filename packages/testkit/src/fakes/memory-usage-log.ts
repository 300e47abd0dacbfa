import type { UsageLog, UsageRow } from '@gateway/core';

/** Keeps rows in an array; `flushed` is the number of rows written by flush() so far. */
export class MemoryUsageLog implements UsageLog {
  readonly rows: UsageRow[] = [];
  flushed = 0;

  record(row: UsageRow): void {
    this.rows.push(row);
  }

  async flush(): Promise<void> {
    this.flushed = this.rows.length;
  }
}
