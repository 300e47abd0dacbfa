import type { UsageRow } from './usage-log.port';

export interface UsageFilter {
  accountId: string;
  keyId?: string;
  provider?: string;
  from?: Date;
  to?: Date;
  model?: string;
  format?: string;
  status?: string;
  taskId?: string;
  /** rows of this batch's lines */
  batchId?: string;
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

export const USAGE_GROUPINGS = ['day', 'model', 'key', 'account'] as const;

/**
 * Every status a written usage row can have: a request's (ok, error, cancelled: the client left, shutdown: our own
 * shutdown cut its stream, interrupted: settled by crash recovery), a task's, and a refund's.
 */
export const USAGE_STATUSES = [
  'ok',
  'error',
  'cancelled',
  'shutdown',
  'interrupted',
  'refunded',
  'queued',
  'running',
  'succeeded',
  'failed',
  'expired',
] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** Every account's usage (the admin's view): the account is one more filter. */
export interface UsageSummaryFilter extends Omit<UsageFilter, 'accountId' | 'limit' | 'after'> {
  accountId?: string;
  groupBy: UsageGrouping;
  /** at most this many groups, in the grouping's order (days newest first, the others by name) */
  limit: number;
}

export interface UsageGroup {
  /** the day (YYYY-MM-DD, UTC), model, key id or account id; null for rows without one */
  group: string | null;
  /** grouped by key: the key's name (null when it has none, or it is gone) and its account */
  keyName?: string | null;
  account?: string | null;
  /** requests: settlement and refund rows of video tasks are bookkeeping, not requests, and are not counted */
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** credits charged (positive rows) */
  credits: number;
  /** credits given back (refund rows), as a positive number */
  refunds: number;
  /** video seconds asked for and delivered, over the succeeded tasks settled in the group (their settlement rows) */
  videoSecondsRequested: number;
  videoSecondsDelivered: number;
}

export const LATENCY_GROUPINGS = ['model', 'provider'] as const;
export type LatencyGrouping = (typeof LATENCY_GROUPINGS)[number];

/** Latency and errors per model or provider (percentiles cannot be added up from daily totals: raw rows only). */
export interface UsageLatencyFilter extends Omit<UsageSummaryFilter, 'groupBy'> {
  groupBy: LatencyGrouping;
}

export interface UsageLatencyGroup {
  /** the model or provider; null for rows without one */
  group: string | null;
  /** requests as UsageGroup counts them (a video task's settlement and refund rows are not requests) */
  requests: number;
  /** requests that failed: status error or failed, or an HTTP status of 400 and up */
  errors: number;
  /** over the requests that have a latency; null when none has */
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

/** The admin's request log: every account's rows, the account one more filter. */
export interface AllAccountsUsageFilter extends Omit<UsageFilter, 'accountId'> {
  accountId?: string;
}

/** Reads the usage log: one account's rows (or every account's, for the admin), or totals across accounts. */
export interface UsageQuery {
  list(filter: UsageFilter | AllAccountsUsageFilter): Promise<{ rows: UsageRecord[]; hasMore: boolean }>;
  dailyTotals(filter: Omit<UsageFilter, 'limit' | 'after'>): Promise<DailyUsageTotal[]>;
  summary(filter: UsageSummaryFilter): Promise<{ groups: UsageGroup[]; hasMore: boolean }>;
  latency(filter: UsageLatencyFilter): Promise<{ groups: UsageLatencyGroup[]; hasMore: boolean }>;
}
