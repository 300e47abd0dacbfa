import type { UsageRow } from './usage-log.port';

export interface UsageFilter {
  accountId: string;
  from?: Date;
  to?: Date;
  model?: string;
  format?: string;
  status?: string;
  taskId?: string;
  requestId?: string;
  idempotencyKey?: string;
  limit: number;
  /** cursor: the id of the last row of the previous page (rows come newest first) */
  after?: string;
}

export interface UsageRecord extends UsageRow {
  id: string;
  createdAt: Date;
}

export interface DailyUsageTotal {
  /** UTC day, YYYY-MM-DD */
  day: string;
  model: string | null;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

/** Reads the usage log of one account. */
export interface UsageQuery {
  list(filter: UsageFilter): Promise<{ rows: UsageRecord[]; hasMore: boolean }>;
  dailyTotals(filter: Omit<UsageFilter, 'limit' | 'after'>): Promise<DailyUsageTotal[]>;
}
