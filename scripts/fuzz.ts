/**
 * The long bad-input run: the fuzz suites of packages/server/test/fuzz with FUZZ_RUNS cases per endpoint (default
 * 800; the suite's own default is 60), then the cases tried per endpoint and the statuses they got.
 * `npm run fuzz` (or `FUZZ_RUNS=2000 npm run fuzz`); exits non-zero when a property failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runs = process.env.FUZZ_RUNS ?? '800';
const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-fuzz-'));
const report = path.join(dir, 'report.jsonl');
const started = Date.now();
console.log(`fuzz: ${runs} cases per endpoint and property`);
const jest = spawnSync('npx', ['jest', 'packages/server/test/fuzz'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    FUZZ_RUNS: runs,
    FUZZ_REPORT: report,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
  },
});

let lines: Array<{ suite: string; endpoints: Record<string, Record<string, number>> }> = [];
try {
  lines = readFileSync(report, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
} catch {
  console.error('no report was written (did the suites start?)');
}
rmSync(dir, { recursive: true, force: true });

let total = 0;
const byStatus: Record<string, number> = {};
for (const { suite, endpoints } of lines) {
  console.log(`\n${suite}`);
  for (const [name, statuses] of Object.entries(endpoints)) {
    const n = Object.values(statuses).reduce((a, b) => a + b, 0);
    total += n;
    for (const [s, c] of Object.entries(statuses)) byStatus[s] = (byStatus[s] ?? 0) + c;
    console.log(
      `  ${name.padEnd(32)} ${String(n).padStart(6)}  ${Object.entries(statuses)
        .map(([s, c]) => `${s}:${c}`)
        .join(' ')}`,
    );
  }
}
const fivexx =
  Object.entries(byStatus)
    .filter(([s]) => Number(s) >= 500)
    .map(([s, c]) => `${s}:${c}`)
    .join(' ') || 'none';
console.log(
  `\ncases tried: ${total} in ${((Date.now() - started) / 1000).toFixed(0)} s; by status ${Object.entries(byStatus)
    .map(([s, c]) => `${s}:${c}`)
    .join(' ')}`,
);
console.log(`5xx answers: ${fivexx} (503 is model_not_in_group only; anything else fails its property)`);
console.log(jest.status === 0 ? 'OK: every property held' : `FAILED: jest exited with ${jest.status}`);
process.exit(jest.status ?? 1);
