/**
 * The long reliability run: packages/server/test/reliability with RELIABILITY_LONG=1 (more tasks, repeated
 * SIGKILLs of one process and of one of two instances), then the figures the suites recorded, summed.
 * `npm run reliability`. TEST_DATABASE_URL (Postgres: the crash run on it, and the two-instance run) and
 * TEST_REDIS_URL (limits across instances) are used when set; unset, a Postgres and a Redis answering on
 * 127.0.0.1's default ports are used when there are any. Exits non-zero when a suite failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const answers = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore', timeout: 3000 }).status === 0;
const env: NodeJS.ProcessEnv = { ...process.env };
if (!env.TEST_DATABASE_URL && answers('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q']))
  env.TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
if (!env.TEST_REDIS_URL && answers('redis-cli', ['-h', '127.0.0.1', 'ping'])) env.TEST_REDIS_URL = 'redis://127.0.0.1:6379';
console.log(
  `reliability (long): Postgres ${env.TEST_DATABASE_URL ? 'yes' : 'no (the two-instance run is skipped)'}, Redis ${env.TEST_REDIS_URL ? 'yes' : 'no'}`,
);

const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-reliability-'));
const report = path.join(dir, 'figures.jsonl');
const started = Date.now();
const jest = spawnSync('npx', ['jest', 'packages/server/test/reliability'], {
  stdio: 'inherit',
  env: {
    ...env,
    RELIABILITY_LONG: '1',
    RELIABILITY_REPORT: report,
    NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
  },
});

const figures = new Map<string, number>();
try {
  for (const line of readFileSync(report, 'utf8').trim().split('\n').filter(Boolean)) {
    const { figure, value } = JSON.parse(line) as { figure: string; value: number };
    figures.set(figure, (figures.get(figure) ?? 0) + value);
  }
} catch {
  console.error('no figures were recorded (did the suites start?)');
}
rmSync(dir, { recursive: true, force: true });

console.log('\nfigures');
for (const [name, value] of [...figures].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${name.padEnd(58)} ${value}`);
const lost = [...figures].filter(([name]) => name.startsWith('tasks lost')).reduce((n, [, v]) => n + v, 0);
console.log(`\ntasks lost: ${lost}; ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(jest.status === 0 ? 'OK: every suite passed' : `FAILED: jest exited with ${jest.status}`);
process.exit(jest.status ?? 1);
