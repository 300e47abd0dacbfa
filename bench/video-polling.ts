/**
 * `npm run bench:polling`: can one gateway process keep 10,000 active video tasks polled, each at least once
 * in every 15 s, on this machine? The gateway's own video engine (store, worker, real upstream adapter) runs
 * here; a fake upstream (testkit) runs in a child process and times every poll it receives. Tasks are created
 * through the use case, submitted by the worker, then polled for a few 15 s windows; the fake reports, per
 * window, how many tasks it saw polled and the longest silence of any task. Writes bench/results/polling.md.
 *
 *   npm run bench:polling -- [--tasks 10000] [--provider sora|ark|veo] [--windows 3] [--concurrency 256] [--no-docs]
 *   BENCH_DATABASE_URL / TEST_DATABASE_URL → Postgres (a fresh schema), else PGlite on disk.
 */
import { openRepositories } from '../packages/server/src/repositories';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { type Principal, type UsageLog } from '../packages/core/src';
import { openDatabase } from '../packages/store-postgres/src';
import { buildConfig } from '../packages/server/src/config';
import { createLogger } from '../packages/observability/src/logger';
import { buildProviders } from '../packages/server/src/providers';
import { buildVideoEngine } from '../packages/server/src/wiring/video-engine';

const ROOT = path.resolve(__dirname, '..');
const WINDOW_MS = 15_000;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}

const opts = {
  tasks: Number(arg('tasks', '10000')),
  provider: arg('provider', 'sora') as 'sora' | 'ark' | 'veo',
  windows: Number(arg('windows', '3')),
  concurrency: Number(arg('concurrency', '256')),
  intervalMs: Number(arg('interval', '50')),
  pollMaxMs: Number(arg('poll-max', '10000')),
  writeDocs: !process.argv.includes('--no-docs'),
};
const TYPE = { sora: 'openai', ark: 'ark', veo: 'google' } as const;
const UPSTREAM_MODEL = { sora: 'sora-2', ark: 'seedance-1-0-pro', veo: 'veo-3.0-generate-001' } as const;

interface Stats {
  tasksKnown: number;
  submissions: number;
  polledInWindow: number;
  maxGapMs: number;
  p50GapMs: number;
  p99GapMs: number;
  httpPolls: number;
}

/** The fake upstream child: start, ask for stats, stop. */
async function startUpstream(): Promise<{
  url: string;
  apiKey: string;
  stats(since: number): Promise<Stats>;
  stop(): void;
  proc: ChildProcess;
}> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'video-polling-upstream.ts'), opts.provider], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: proc.stdout! });
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (l) => waiting.shift()?.(l));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const ready = await next();
  const { url, apiKey } = JSON.parse(ready.replace(/^READY /, '')) as { url: string; apiKey: string };
  return {
    url,
    apiKey,
    proc,
    async stats(since) {
      const answer = next();
      proc.stdin!.write(`stats ${since}\n`);
      return JSON.parse((await answer).replace(/^STATS /, '')) as Stats;
    },
    stop: () => proc.stdin!.write('quit\n'),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const log = (l: string) => console.log(l);
  const upstream = await startUpstream();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-polling-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
  const schema = databaseUrl ? `bench_polling_${Date.now().toString(36)}` : undefined;
  const db = await openDatabase({ databaseUrl, dataDir: databaseUrl ? undefined : dataDir, schema, poolMax: 20 });
  const config = buildConfig('(bench)', {
    providers: [{ id: 'up', type: TYPE[opts.provider], baseUrl: upstream.url, apiKey: upstream.apiKey }],
    models: [
      { id: 'bench-video', kind: 'video', family: '2.0', tier: 'standard', provider: 'up', upstreamModel: UPSTREAM_MODEL[opts.provider] },
    ],
    groups: [{ name: 'default', models: ['*'] }],
    limits: { maxActiveTasksPerAccount: opts.tasks + 1 },
  });
  const providers = buildProviders(config, { dataDir });
  const usage: UsageLog = { record: () => undefined, flush: async () => undefined } as unknown as UsageLog;
  const env = { port: 0, host: '127.0.0.1', dataDir, publicBaseUrl: 'http://localhost' };
  const engine = buildVideoEngine(
    {
      env,
      config,
      knex: db.knex,
      stores: openRepositories(db.knex, env, { clock: () => new Date() }),
      usage,
      logger: createLogger('error'),
      providers,
    },
    { intervalMs: opts.intervalMs, concurrency: opts.concurrency, pollMinMs: 500, pollMaxMs: opts.pollMaxMs },
  );
  const principal: Principal = { accountId: 'bench', keyId: 'bench-key', group: 'default' };

  log(
    `bench:polling — ${opts.tasks} tasks on a fake ${opts.provider} upstream, store ${db.kind}, worker concurrency ${opts.concurrency}, ${os.cpus().length} cores`,
  );
  const t0 = Date.now();
  for (let i = 0; i < opts.tasks; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, opts.tasks - i) }, (_, j) =>
        engine.service.create({
          principal,
          modelId: 'bench-video',
          format: 'bench',
          requestId: `b${i + j}`,
          draft: { prompt: `bench task ${i + j}`, durationSeconds: 4, resolution: '720p', aspectRatio: '16:9' },
        }),
      ),
    );
  }
  const createdMs = Date.now() - t0;
  log(`created ${opts.tasks} tasks in ${(createdMs / 1000).toFixed(1)} s`);

  const cpu0 = process.cpuUsage();
  engine.start();
  const t1 = Date.now();
  for (;;) {
    const s = await upstream.stats(Date.now());
    if (s.submissions >= opts.tasks) break;
    if (Date.now() - t1 > 300_000) throw new Error(`only ${s.submissions} submitted after 5 minutes`);
    await sleep(500);
  }
  const submittedMs = Date.now() - t1;
  log(`worker submitted all ${opts.tasks} upstream in ${(submittedMs / 1000).toFixed(1)} s`);
  // Let the first polls spread out (new tasks are polled 0.5 s after submission, then back off to 10 s).
  await sleep(WINDOW_MS);

  const windows: Array<Stats & { pollsPerSecond: number }> = [];
  let before = (await upstream.stats(Date.now())).httpPolls;
  for (let w = 0; w < opts.windows; w++) {
    const start = Date.now();
    await sleep(WINDOW_MS);
    const s = await upstream.stats(start);
    const rate = (s.httpPolls - before) / ((Date.now() - start) / 1000);
    before = s.httpPolls;
    windows.push({ ...s, pollsPerSecond: Math.round(rate) });
    log(
      `window ${w + 1}: ${s.polledInWindow}/${opts.tasks} tasks polled; longest silence ${(s.maxGapMs / 1000).toFixed(1)} s (p50 ${(s.p50GapMs / 1000).toFixed(1)} s, p99 ${(s.p99GapMs / 1000).toFixed(1)} s); ${Math.round(rate)} upstream requests/s`,
    );
  }
  const cpu = process.cpuUsage(cpu0);
  const wall = (Date.now() - t1) / 1000;
  const gatewayCpu = (cpu.user + cpu.system) / 1e6 / wall;
  const rssMb = Math.round(process.memoryUsage().rss / 1e6);
  await engine.stop();
  providers.close();
  if (schema) await db.knex.raw(`drop schema "${schema}" cascade`);
  await db.close();
  upstream.stop();
  rmSync(dataDir, { recursive: true, force: true });

  const ok = windows.every((w) => w.polledInWindow >= opts.tasks && w.maxGapMs <= WINDOW_MS);
  log(ok ? `OK: every task polled in every 15 s window` : `NOT MET: some task went more than 15 s without a poll`);
  if (opts.writeDocs) {
    writeSection(renderSection({ db: db.kind, createdMs, submittedMs, windows, gatewayCpu, rssMb, ok }));
    log('wrote bench/results/polling.md');
  }
  process.exit(ok ? 0 : 1);
}

const DOC = path.join(ROOT, 'bench', 'results', 'polling.md');

const HEADER = [
  '# Benchmark: polling 10,000 active video tasks',
  '',
  'Generated by `npm run bench:polling` (bench/video-polling.ts); each run replaces its own section (one per upstream',
  'and store). **Target** (issue 7): 10,000 active tasks against a fake upstream, each polled at least once in every',
  '15 s, on this 2-core machine.',
  '',
  '**Set-up.** One gateway video engine (use case, worker, the real provider adapter) in one Node process; the fake',
  'upstream (packages/testkit) in a second process on 127.0.0.1, whose tasks run for an hour so all stay active and',
  'which timestamps every poll it receives. Tasks are created through the use case and submitted by the worker; after',
  'a 15 s settling window come the measured 15 s windows. "Silence" is, per task, the longest stretch of a window',
  'without a poll (window edges included).',
  '',
  '**Why it keeps up.** Claims are one `UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED LIMIT n)` per round for all',
  'free slots, ordered by `next_poll_at` (index `video_tasks_due`), so the longest-waiting task is always next and none',
  'starves; steps run concurrently up to the worker concurrency, each poll one upstream GET on a keep-alive socket; the',
  "lease releases (with each task's next poll time) of concurrent steps are written together, one `UPDATE … FROM (VALUES",
  '…)` per batch (ReleaseBatcher, `releaseMany`), which roughly doubled the poll rate on both stores; delays back off to `VIDEO_POLL_MAX_MS` (10 s) with',
  'downward jitter; a 429 with `Retry-After` pauses that provider as a whole. Ark status reads are batched into list',
  'calls of up to 100 `filter.task_ids`; Sora and Veo have no batch read, so they cost one GET per task (the worst case).',
  '',
  'For comparison: a relay that polls one task a second per channel needs about 10 minutes for a round of 500 tasks.',
  '',
].join('\n');

function renderSection(r: {
  db: string;
  createdMs: number;
  submittedMs: number;
  windows: Array<Stats & { pollsPerSecond: number }>;
  gatewayCpu: number;
  rssMb: number;
  ok: boolean;
}): string {
  const rows = r.windows.map(
    (w, i) =>
      `| ${i + 1} | ${w.polledInWindow} / ${opts.tasks} | ${(w.maxGapMs / 1000).toFixed(1)} s | ${(w.p50GapMs / 1000).toFixed(1)} s | ${(w.p99GapMs / 1000).toFixed(1)} s | ${w.pollsPerSecond} |`,
  );
  const cpu = os.cpus();
  return [
    `## ${opts.provider} upstream, ${r.db === 'pglite' ? 'PGlite on disk' : 'PostgreSQL'}`,
    '',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu.length} cores (${cpu[0]?.model.trim()}), Node ${process.version}; ` +
      `${opts.tasks.toLocaleString('en')} tasks, worker concurrency ${opts.concurrency}, claim interval ${opts.intervalMs} ms, poll backoff 0.5 s → ${opts.pollMaxMs / 1000} s. ` +
      `Created in ${(r.createdMs / 1000).toFixed(1)} s, all submitted upstream in ${(r.submittedMs / 1000).toFixed(1)} s. **Target ${r.ok ? 'met' : 'not met'}.**`,
    '',
    '| window | tasks polled in the window | longest silence of any task | median | p99 | upstream requests/s |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `The gateway process used ${(r.gatewayCpu * 100).toFixed(0)} % of one core on average, ${r.rssMb} MB RSS at the end; ` +
      `the machine's load average at the end was ${os.loadavg()[0]!.toFixed(1)} (other work shared the 2 cores).`,
    '',
  ].join('\n');
}

/** Replaces this run's section (same heading) or appends it; the header is written once. */
function writeSection(section: string): void {
  const heading = section.split('\n')[0];
  const current = existsSync(DOC) ? readFileSync(DOC, 'utf8') : HEADER;
  const parts = current.split(/^(?=## )/m);
  parts[0] = HEADER; // the text above the sections is this script's, refreshed every run
  const i = parts.findIndex((p) => p.startsWith(heading + '\n'));
  if (i >= 0) parts[i] = section + '\n';
  else parts.push((parts.at(-1)!.endsWith('\n\n') ? '' : '\n') + section + '\n');
  writeFileSync(DOC, parts.join('').replace(/\n{3,}/g, '\n\n'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
