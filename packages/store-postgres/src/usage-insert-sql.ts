import type { Knex } from 'knex';
import type { UsageRow } from '@gateway/core';
import { LONE_SURROGATE, usageRowToColumns } from './usage-row.codec';

/**
 * usage_log's columns as the usage log writes them, each with its type in the table. The json(b) columns arrive as
 * the JSON text the codec makes and are cast, so a row means the same here as through a plain insert.
 */
const COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['row_id', 'text'],
  ['created_at', 'timestamptz'],
  ['http_status', 'integer'],
  ['request_id', 'text'],
  ['account_id', 'text'],
  ['key_id', 'text'],
  ['model', 'text'],
  ['format', 'text'],
  ['status', 'text'],
  ['error_code', 'text'],
  ['task_id', 'text'],
  ['idempotency_key', 'text'],
  ['provider', 'text'],
  ['batch_id', 'text'],
  ['input_tokens', 'integer'],
  ['output_tokens', 'integer'],
  ['cached_tokens', 'integer'],
  ['cache_write_tokens', 'integer'],
  ['reasoning_tokens', 'integer'],
  ['attempts', 'integer'],
  ['credits', 'numeric(20,6)'],
  ['upstream_request_id', 'text'],
  ['latency_ms', 'integer'],
  ['ttft_ms', 'integer'],
  ['bytes', 'bigint'],
  ['characters', 'bigint'],
  ['audio_seconds', 'double precision'],
  ['search_units', 'integer'],
  ['estimated', 'boolean'],
  ['cache_hit', 'boolean'],
  ['warnings', 'jsonb'],
  ['guardrails', 'jsonb'],
  ['video_requested_seconds', 'numeric(12,3)'],
  ['video_requested_resolution', 'text'],
  ['video_delivered_seconds', 'numeric(12,3)'],
  ['video_delivered_resolution', 'text'],
];
export const USAGE_INSERT_COLUMNS = COLUMNS.map(([c]) => c);

const asText = (type: string) => (type === 'jsonb' ? 'text' : type);
/**
 * One bind parameter per group, the rows as a JSON array: a multi-row insert's 36 parameters a row cost the driver and
 * the server more than parsing one document (`npm run bench:usage-insert -- --encoding`). Built once.
 */
const INSERT_SQL =
  `insert into usage_log (${USAGE_INSERT_COLUMNS.join(', ')}) select ` +
  COLUMNS.map(([c, type]) => (type === 'jsonb' ? `r.${c}::jsonb` : `r.${c}`)).join(', ') +
  ` from json_to_recordset(?::json) as r(${COLUMNS.map(([c, type]) => `${c} ${asText(type)}`).join(', ')})` +
  ` on conflict (row_id) do nothing`;

const wellFormed = (_k: string, v: unknown) => (typeof v === 'string' ? v.replace(LONE_SURROGATE, '\ufffd') : v);

/** A row's columns; NaN and ±Infinity as the driver sends them (text), not as JSON's null. */
function columns(r: UsageRow): Record<string, unknown> {
  const c = usageRowToColumns(r);
  for (const k in c) if (typeof c[k] === 'number' && !Number.isFinite(c[k])) c[k] = String(c[k]);
  return c;
}

/** The rows as the insert's one parameter. */
export function usageRowsJson(rows: UsageRow[]): string {
  const all = rows.map(columns);
  const text = JSON.stringify(all);
  // JSON.stringify escapes a lone surrogate as \udxxx (lower case); the rare text that has one is encoded again
  return text.includes('\\ud') ? JSON.stringify(all, wellFormed) : text;
}

/** Inserts the rows in one statement; a row whose rowId is already there is left as it is. */
export async function insertUsageRows(db: Knex, rows: UsageRow[]): Promise<void> {
  // a lone row goes as parameters: the JSON statement's fixed cost (parsing it, setting up 36 column conversions)
  // outweighs what one row saves (bench/usage-insert.ts --encoding: even at 3 rows, cheaper from 10)
  if (rows.length === 1) await db('usage_log').insert(usageRowToColumns(rows[0]!)).onConflict('row_id').ignore();
  else await db.raw(INSERT_SQL, [usageRowsJson(rows)]);
}
