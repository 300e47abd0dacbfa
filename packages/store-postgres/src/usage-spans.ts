import type { UsageFilter } from '@gateway/core';

/** A half-open time span [from, to); an absent bound is open. */
export interface TimeSpan {
  from?: Date;
  to?: Date;
}

/**
 * Where a grouped usage query reads each part of its time range: the daily rollup (usage_daily) for the whole UTC days
 * inside [from, to), the raw rows for the rest. `raw` holds at most two spans, the partial days at the edges, each less
 * than a day long, so an index on (created_at) or (account_id, created_at) keeps them small.
 */
export interface UsageSpans {
  rollup: TimeSpan | null;
  raw: TimeSpan[];
}

const DAY = 86_400_000;
const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY) * DAY);
const ceilDay = (d: Date) => new Date(Math.ceil(d.getTime() / DAY) * DAY);

type SpanFilter = Pick<UsageFilter, 'from' | 'to' | 'taskId' | 'batchId' | 'requestId' | 'idempotencyKey'>;

/**
 * Decides rollup vs raw rows. The rollup keeps account, key, model, provider, status and wire format per
 * UTC day; a task, request id or idempotency key needs the raw rows throughout, and so does a range holding no whole
 * day. `rollup: false` (tests only) plans the raw rows alone, the reference answer the planned one is compared with.
 */
export function planUsageSpans(f: SpanFilter, options: { rollup?: boolean } = {}): UsageSpans {
  const all: UsageSpans = { rollup: null, raw: [{ from: f.from, to: f.to }] };
  if (options.rollup === false) return all;
  if (f.taskId !== undefined || f.batchId !== undefined || f.requestId !== undefined || f.idempotencyKey !== undefined) return all;
  const start = f.from && ceilDay(f.from);
  const end = f.to && floorDay(f.to);
  if (start && end && start >= end) return all;
  const raw: TimeSpan[] = [];
  if (f.from && start && f.from < start) raw.push({ from: f.from, to: start });
  if (f.to && end && end < f.to) raw.push({ from: end, to: f.to });
  return { rollup: { from: start, to: end }, raw };
}
