import type { UsageRow } from './usage-row';

export interface Bucket {
  /** the bucket's start, Unix seconds */
  at: number;
  label: string;
  requests: number;
  errors: number;
  /** mean latency of the bucket's rows that have one */
  latencyMs: number | null;
  credits: number;
}

/** A bucket width that gives about `target` buckets over the rows' span: a minute up to a day. */
export function bucketSeconds(rows: UsageRow[], target = 24): number {
  if (rows.length < 2) return 60;
  const times = rows.map((r) => r.created_at);
  const span = Math.max(...times) - Math.min(...times);
  const steps = [60, 300, 900, 3600, 6 * 3600, 86400];
  return steps.find((s) => span / s <= target) ?? 86400;
}

const isError = (r: UsageRow) => r.status === 'error' || r.status === 'failed' || r.http_status >= 400;

/** Requests, errors, mean latency and credits per time bucket, oldest first, empty buckets included. */
export function bucketUsage(rows: UsageRow[], width = bucketSeconds(rows)): Bucket[] {
  if (rows.length === 0) return [];
  const start = Math.floor(Math.min(...rows.map((r) => r.created_at)) / width) * width;
  const end = Math.floor(Math.max(...rows.map((r) => r.created_at)) / width) * width;
  const buckets = new Map<number, Bucket & { latencySum: number; latencyN: number }>();
  for (let at = start; at <= end; at += width) {
    const d = new Date(at * 1000);
    const label = width >= 86400 ? d.toLocaleDateString() : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    buckets.set(at, { at, label, requests: 0, errors: 0, latencyMs: null, credits: 0, latencySum: 0, latencyN: 0 });
  }
  for (const r of rows) {
    const b = buckets.get(Math.floor(r.created_at / width) * width)!;
    b.requests++;
    if (isError(r)) b.errors++;
    if (r.latency_ms !== null) {
      b.latencySum += r.latency_ms;
      b.latencyN++;
    }
    b.credits += r.credits ?? 0;
  }
  return [...buckets.values()].map(({ latencySum, latencyN, ...b }) => ({
    ...b,
    latencyMs: latencyN ? Math.round(latencySum / latencyN) : null,
  }));
}
