import type { UsageRecord, UsageRow } from '@gateway/core';
import { columnsOf, json, num, snakeCase } from './row-values';

/** The fields usage_log keeps as they are, each in its snakeCase column. */
const TEXT = [
  'requestId',
  'accountId',
  'keyId',
  'model',
  'format',
  'status',
  'errorCode',
  'taskId',
  'idempotencyKey',
  'provider',
  'batchId',
] as const;
const COUNTS = ['inputTokens', 'outputTokens', 'cachedTokens', 'cacheWriteTokens', 'reasoningTokens', 'attempts', 'credits'] as const;
/** the fields stored as they are */
const PLAIN = [...TEXT, ...COUNTS, 'upstreamRequestId'] as const;
const rounded = (ms: number | null | undefined) => (ms === undefined || ms === null ? null : Math.round(ms));
/** A lone surrogate half: the driver sends it as U+FFFD, while PostgreSQL's JSON parser refuses its escape. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * Text PostgreSQL can store: a NUL (which text cannot hold) becomes U+FFFD. Refused, it would fail its row's whole
 * group at every retry and hold back the rows behind it; requests with NUL are refused at the edge, this is the floor.
 */
const storable = (v: unknown) => (typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v);
/** JSON for a jsonb column: its strings storable, and no lone surrogate half (jsonb refuses its `\\udxxx` escape). */
const storableJson = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? (storable(v) as string).replace(LONE_SURROGATE, '\uFFFD') : v));

/** A usage row as the usage_log table stores it (written by the usage log, task admission and settlement). */
export function usageRowToColumns(r: UsageRow): Record<string, unknown> {
  const out: Record<string, unknown> = { row_id: r.rowId ?? null, created_at: r.createdAt, http_status: r.httpStatus };
  for (const f of PLAIN) out[snakeCase(f)] = storable(r[f]) ?? null;
  out.latency_ms = rounded(r.latencyMs);
  out.ttft_ms = rounded(r.ttftMs);
  out.bytes = r.bytes ?? null;
  out.characters = r.characters ?? null;
  out.audio_seconds = r.audioSeconds ?? null;
  out.search_units = r.searchUnits ?? null;
  out.estimated = r.estimated ?? null;
  out.cache_hit = r.cacheHit ?? null;
  out.warnings = r.warnings && r.warnings.length ? storableJson(r.warnings) : null;
  out.guardrails = r.guardrails && r.guardrails.length ? storableJson(r.guardrails) : null;
  out.video_requested_seconds = r.video?.requested.seconds ?? null;
  out.video_requested_resolution = storable(r.video?.requested.resolution) ?? null;
  out.video_delivered_seconds = r.video?.delivered?.seconds ?? null;
  out.video_delivered_resolution = storable(r.video?.delivered?.resolution) ?? null;
  return out;
}

export function columnsToUsageRecord(r: Record<string, any>): UsageRecord {
  const counts = Object.fromEntries(COUNTS.map((f) => [f, num(r[snakeCase(f)])])) as Record<(typeof COUNTS)[number], number | undefined>;
  return {
    ...columnsOf(r, TEXT),
    ...counts,
    ...units(r),
    id: String(r.id),
    createdAt: new Date(r.created_at),
    httpStatus: Number(r.http_status),
    upstreamRequestId: r.upstream_request_id ?? null,
    latencyMs: num(r.latency_ms),
    ttftMs: num(r.ttft_ms) ?? null,
    warnings: json<string[]>(r.warnings) ?? [],
    ...(r.guardrails ? { guardrails: json<UsageRow['guardrails']>(r.guardrails) } : {}),
    video: videoOf(r),
  };
}

/** The metered kinds' units, on the rows that have them (text, image and video rows show none). */
function units(r: Record<string, any>): Pick<UsageRecord, 'characters' | 'audioSeconds' | 'searchUnits' | 'estimated' | 'cacheHit'> {
  const out: Pick<UsageRecord, 'characters' | 'audioSeconds' | 'searchUnits' | 'estimated' | 'cacheHit'> = {};
  if (num(r.characters) !== undefined) out.characters = num(r.characters);
  if (num(r.audio_seconds) !== undefined) out.audioSeconds = num(r.audio_seconds);
  if (num(r.search_units) !== undefined) out.searchUnits = num(r.search_units);
  if (r.estimated !== null && r.estimated !== undefined) out.estimated = Boolean(r.estimated);
  if (r.cache_hit) out.cacheHit = true;
  return out;
}

/** The usage row's video shapes: null on rows that are not about a video task. */
function videoOf(r: Record<string, any>): UsageRecord['video'] {
  if (r.video_requested_seconds === null || r.video_requested_seconds === undefined) return null;
  const delivered =
    r.video_delivered_seconds === null || r.video_delivered_seconds === undefined
      ? null
      : { seconds: Number(r.video_delivered_seconds), resolution: r.video_delivered_resolution };
  return { requested: { seconds: Number(r.video_requested_seconds), resolution: r.video_requested_resolution }, delivered };
}
