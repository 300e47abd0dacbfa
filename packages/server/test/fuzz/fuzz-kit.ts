import fc from 'fast-check';
import { appendFileSync } from 'node:fs';
import type { Knex } from 'knex';

/** The active-task cap off, so accepted cases never turn later ones into 429s that hide deeper checks. */
export const UNCAPPED = { maxActiveTasksPerAccount: 1_000_000 };

/** Runs per endpoint: FUZZ_RUNS, else the in-suite default. */
export const fuzzRuns = (inSuite: number) => Number(process.env.FUZZ_RUNS ?? inSuite);

/**
 * The in-suite run (npm test, CI) is reproducible: a fixed seed unless FUZZ_SEED names another. The long run
 * (`npm run fuzz`, which sets FUZZ_RUNS) draws a fresh seed each time; a failure prints the seed and path to replay.
 */
const seed = process.env.FUZZ_SEED ?? (process.env.FUZZ_RUNS ? undefined : '20261122');
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });

export const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '..',
    '../..',
    '%2F',
    '%2e%2e%2f',
    '\u0000',
    '\u202e',
    '😀'.repeat(50),
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    'null',
    'a'.repeat(5000),
    '<script>',
    "' OR 1=1 --",
    'sk-' + 'x'.repeat(300),
    'task' + 'a'.repeat(24),
    '-1',
    '0',
    '99999999999999999999',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const hostileNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -1, 0, 0.5, 2 ** 53));
const deep = (depth: number): unknown => (depth === 0 ? 'x' : { a: deep(depth - 1) });
export const hostileValue = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant(deep(200)),
  fc.array(fc.anything(), { maxLength: 5 }),
  fc.object({ maxDepth: 3 }),
);

/** A stack trace, a module path or a source location in an answer; null when clean. */
export function leakProblem(text: string): string | null {
  const m = /\n\s+at .+\(.*:\d+:\d+\)|node_modules|\/work\/|packages\/|\.ts:\d+/.exec(text);
  return m ? `leaks "${m[0]}" in: ${text.slice(0, 300)}` : null;
}

/** What a refused request must not have written: tasks, stored responses, and the operator's records. */
const COUNTED = [
  'video_tasks',
  'responses',
  'config_entries',
  'accounts',
  'api_keys',
  'account_quotas',
  'audit_log',
  'key_previous_secrets',
];
export async function rowCounts(knex: Knex): Promise<Record<string, number>> {
  const { rows } = await knex.raw(`select ${COUNTED.map((t) => `(select count(*) from ${t}) as ${t}`).join(', ')}`);
  return Object.fromEntries(COUNTED.map((t) => [t, Number(rows[0][t])]));
}

/** Status counts per endpoint, for `npm run fuzz` (FUZZ_REPORT names a file that gets one JSON line per suite). */
const tally = new Map<string, Record<number, number>>();
export function recordCase(endpoint: string, status: number): void {
  const t = tally.get(endpoint) ?? {};
  t[status] = (t[status] ?? 0) + 1;
  tally.set(endpoint, t);
}
export function writeReport(suite: string): void {
  const file = process.env.FUZZ_REPORT;
  if (!file) return;
  appendFileSync(file, JSON.stringify({ suite, endpoints: Object.fromEntries(tally) }) + '\n');
}
