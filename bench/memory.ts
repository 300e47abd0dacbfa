/**
 * npm run bench:memory — what the idle gateway holds, and what of it idle does not need.
 *
 * Starts the bundle as `npm start` runs it on the embedded store (a first start on a fresh DATA_DIR, then a restart on
 * it) and on PostgreSQL (a database of its own, dropped and made again: a first start with its migrations, then a
 * restart), MEMORY_RUNS times each (default 3), preloading bench/lib/memory-probe.cjs. It reads the process tree's RSS
 * from /proc 3 s after the listening line and once settled (V8 collects an idle heap by itself some seconds later),
 * then asks the probe for each isolate's heap and external memory (the embedded store's worker thread apart) and the
 * npm packages loaded. Then each heavy module's own cost, loaded alone in a bare
 * node (`--expose-gc`, collected before and after; median of three). Prints the tables and writes them into
 * bench/results/memory.md. BENCH_DATABASE_URL names the PostgreSQL server (default the local one).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { GATEWAY_ARGS, ROOT, buildGateway, startProcess, treeRssMb } from './lib/processes';
import { median } from './lib/measure';

const RUNS = Number(process.env.MEMORY_RUNS ?? 3);
const EARLY_MS = 3000;
// V8's memory reducer collects an idle heap some seconds after start-up: settled is when the RSS made no new low
// (by 1 MB) for SETTLED_QUIET_MS, or at SETTLED_MAX_MS
const SETTLED_QUIET_MS = 30_000;
const SETTLED_MAX_MS = 150_000;
const PROBE = path.join(ROOT, 'bench/lib/memory-probe.cjs');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// a database of this run's own, dropped at the end
const DB_NAME = `gateway_bench_memory_${process.pid}`;
const MB = 1024 * 1024;

/** The modules issue 40 names, and the others a request kind or an option needs: `require` names what to load. */
const HEAVY: Array<{ name: string; require: string[]; needed: string }> = [
  { name: '@electric-sql/pglite (main thread)', require: ['@electric-sql/pglite'], needed: 'the embedded store (its thread loads it)' },
  { name: 'knex-pglite', require: ['knex-pglite'], needed: 'the embedded store' },
  { name: 'pg', require: ['pg'], needed: 'DATABASE_URL' },
  {
    name: '@opentelemetry SDK + OTLP exporter',
    require: ['@opentelemetry/sdk-trace-node', '@opentelemetry/exporter-trace-otlp-http'],
    needed: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  },
  { name: '@aws-sdk/client-s3', require: ['@aws-sdk/client-s3'], needed: 'CONTENT_STORE=s3://…' },
  { name: '@ffmpeg-installer/ffmpeg', require: ['@ffmpeg-installer/ffmpeg'], needed: 'a simulator video or speech, a video probe' },
  { name: 'ws', require: ['ws'], needed: 'the Responses WebSocket' },
  { name: 'busboy', require: ['busboy'], needed: 'a multipart file upload' },
  { name: 'multer', require: ['multer'], needed: 'a multipart audio or image edit' },
  { name: 're2js', require: ['re2js'], needed: 'a guardrail deny pattern' },
  { name: 'ioredis', require: ['ioredis'], needed: 'REDIS_URL' },
];

interface Isolate {
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}
interface ProbeReport {
  seq: number;
  main: Isolate;
  packages: string[];
  workers: Array<Isolate & { threadId: number }>;
}
interface Sample {
  earlyRssMb: number;
  rssMb: number;
  probe: ProbeReport;
}

/** The lowest RSS of the tree once it makes no new low for SETTLED_QUIET_MS (1 s samples). */
async function settledRssMb(pid: number, startedAt: number): Promise<number> {
  let low = treeRssMb(pid);
  let lowAt = Date.now();
  while (Date.now() - lowAt < SETTLED_QUIET_MS && Date.now() - startedAt < SETTLED_MAX_MS) {
    await sleep(1000);
    const now = treeRssMb(pid);
    if (now < low - 1) lowAt = Date.now();
    low = Math.min(low, now);
  }
  return low;
}

async function idleSample(env: Record<string, string>, out: string): Promise<Sample> {
  rmSync(out, { force: true });
  const gw = await startProcess(
    'gateway',
    process.execPath,
    ['--require', PROBE, ...GATEWAY_ARGS],
    { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', MEMORY_PROBE_OUT: out, ...env },
    /Gateway listening on/,
    240_000,
  );
  try {
    const listening = Date.now();
    await sleep(EARLY_MS);
    const earlyRssMb = treeRssMb(gw.child.pid!);
    const rssMb = await settledRssMb(gw.child.pid!, listening);
    gw.child.kill('SIGUSR2');
    for (let i = 0; i < 100 && !existsSync(out); i++) await sleep(50);
    return { earlyRssMb, rssMb, probe: JSON.parse(readFileSync(out, 'utf8')) as ProbeReport };
  } finally {
    await gw.stop();
  }
}

async function onServer(...statements: string[]): Promise<void> {
  const c = new Client({ connectionString: SERVER_URL });
  await c.connect();
  try {
    for (const sql of statements) await c.query(sql);
  } finally {
    await c.end();
  }
}

async function recreateDatabase(): Promise<string> {
  await onServer(`drop database if exists ${DB_NAME}`, `create database ${DB_NAME}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

type Scenario = 'embedded, first start' | 'embedded, restart' | 'PostgreSQL, first start' | 'PostgreSQL, restart';

async function measureIdle(): Promise<Map<Scenario, Sample[]>> {
  const samples = new Map<Scenario, Sample[]>();
  const add = (s: Scenario, x: Sample) => samples.set(s, [...(samples.get(s) ?? []), x]);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  try {
    for (let run = 0; run < RUNS; run++) {
      const dataDir = mkdtempSync(path.join(tmp, 'embedded-'));
      const out = path.join(tmp, 'probe.json');
      add('embedded, first start', await idleSample({ DATA_DIR: dataDir }, out));
      add('embedded, restart', await idleSample({ DATA_DIR: dataDir }, out));
      const databaseUrl = await recreateDatabase();
      const pgDir = mkdtempSync(path.join(tmp, 'pg-'));
      add('PostgreSQL, first start', await idleSample({ DATA_DIR: pgDir, DATABASE_URL: databaseUrl }, out));
      add('PostgreSQL, restart', await idleSample({ DATA_DIR: pgDir, DATABASE_URL: databaseUrl }, out));
      const last = [...samples].map(([s, xs]) => `${s} ${xs.at(-1)!.earlyRssMb.toFixed(0)} → ${xs.at(-1)!.rssMb.toFixed(0)} MB`);
      console.log(`run ${run + 1}/${RUNS}: ${last.join(', ')}`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    await onServer(`drop database if exists ${DB_NAME}`);
  }
  return samples;
}

/** One module's RSS and heap cost, loaded alone in a bare node process after a full collection. */
function moduleCost(names: string[]): { rssMb: number; heapMb: number } {
  const script = `gc(); const a = process.memoryUsage(); ${names.map((n) => `require(${JSON.stringify(n)});`).join(' ')}
    gc(); const b = process.memoryUsage(); console.log(JSON.stringify({ rss: b.rss - a.rss, heap: b.heapUsed - a.heapUsed }));`;
  const runs = [0, 1, 2].map(() =>
    JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { cwd: ROOT, encoding: 'utf8' })),
  );
  return { rssMb: median(runs.map((r) => r.rss)) / MB, heapMb: median(runs.map((r) => r.heap)) / MB };
}

function dirSizeMb(dir: string): number {
  if (!existsSync(dir)) return 0;
  return (
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0) / MB
  );
}

const mb = (bytes: number) => (bytes / MB).toFixed(1);
/** median (min–max) over the runs */
function spread(xs: number[], digits = 0): string {
  const f = (x: number) => x.toFixed(digits);
  return xs.length > 1 ? `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : f(xs[0]!);
}

function idleTable(samples: Map<Scenario, Sample[]>): string[] {
  const lines = [
    '| store, start | RSS 3 s after listening (MB) | idle RSS, settled (MB) | main heap used / total (MB) | main external / arrayBuffers (MB) | worker thread: heap used / total, external (MB) |',
    '|---|---|---|---|---|---|',
  ];
  for (const [scenario, xs] of samples) {
    const m = (f: (s: Sample) => number) => median(xs.map(f));
    const worker = (f: (w: Isolate) => number) => m((s) => s.probe.workers.reduce((sum, w) => sum + f(w), 0));
    const workerCell = xs[0]!.probe.workers.length
      ? `${mb(worker((w) => w.heapUsed))} / ${mb(worker((w) => w.heapTotal))}, ${mb(worker((w) => w.external))}`
      : 'none';
    lines.push(
      `| ${scenario} | ${spread(xs.map((s) => s.earlyRssMb))} | ${spread(xs.map((s) => s.rssMb))} | ${mb(m((s) => s.probe.main.heapUsed))} / ${mb(m((s) => s.probe.main.heapTotal))} | ` +
        `${mb(m((s) => s.probe.main.external))} / ${mb(m((s) => s.probe.main.arrayBuffers))} | ${workerCell} |`,
    );
  }
  return lines;
}

function modulesTable(samples: Map<Scenario, Sample[]>): string[] {
  const loaded = (scenario: Scenario, pkgs: string[]) =>
    pkgs.every((p) => samples.get(scenario)!.every((s) => s.probe.packages.includes(topPackage(p)))) ? 'yes' : 'no';
  const lines = [
    '| module | needed for | loaded at idle: embedded / PostgreSQL | cost alone in a bare node: RSS / heap (MB) |',
    '|---|---|---|---|',
  ];
  for (const h of HEAVY) {
    const cost = moduleCost(h.require);
    lines.push(
      `| ${h.name} | ${h.needed} | ${loaded('embedded, restart', h.require)} / ${loaded('PostgreSQL, restart', h.require)} | ` +
        `${cost.rssMb.toFixed(1)} / ${cost.heapMb.toFixed(1)} |`,
    );
  }
  const dashboard = dirSizeMb(path.join(ROOT, 'packages/dashboard/dist'));
  lines.push(
    `| the dashboard's assets (${dashboard.toFixed(1)} MB on disk) | GET /dashboard | no / no: sent from disk per request | 0 / 0 |`,
  );
  return lines;
}

const topPackage = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

async function main(): Promise<void> {
  buildGateway();
  const samples = await measureIdle();
  const lines = [
    '# Idle memory',
    '',
    `\`npm run bench:memory\`, ${new Date().toISOString().slice(0, 16)}Z, ${RUNS} runs (median, min–max), ${os.cpus().length} cores, node ${process.version}.`,
    `The bundle run as \`npm start\` runs it (\`node ${GATEWAY_ARGS.join(' ')}\`), RSS of its process tree ${EARLY_MS / 1000} s after the listening line and settled`,
    `(the low once no new one came for ${SETTLED_QUIET_MS / 1000} s: V8 collects an idle heap by itself); heaps and packages from the probe, once settled.`,
    '',
    ...idleTable(samples),
    '',
    'Loaded at idle: in every run, the restart of each store. Cost: `--expose-gc`, a full collection before and after the `require`, median of three.',
    '',
    ...modulesTable(samples),
    '',
  ];
  console.log(lines.join('\n'));
  await writeFile(path.join(ROOT, 'bench/results/memory.md'), lines.join('\n'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
