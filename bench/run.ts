/**
 * `npm run bench`: the mock upstream directly, a bare node proxy (the yardstick), this gateway and Portkey's
 * open-source gateway, side by side in one run on this machine; writes docs/benchmarks.md and bench/results/sweep.svg.
 * The default run takes a few minutes; BENCH_FULL=1 for the longer run of a quiet machine, BENCH_QUICK=1 to try things.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeAgent, interleavedSequential, load, loadTrials, median, timedRequest, type LoadResult, type Target } from './lib/measure';
import { BENCH_KEY, buildGateway, ROOT, startProcess, treeCpuSeconds, treeRssMb, type Proc } from './lib/processes';
import { chatBody, ensurePortkey, gatewayConfig, startGateway } from './lib/gateways';
import { openManyStreams, taskScenario, workersScenario } from './lib/scenarios';
import { benchGuardrails, guardrailsLine, type GuardrailsBench } from './guardrails';
import { benchCache, cacheLine, type CacheBench } from './cache';
import { renderReport, targetsTable } from './lib/report';
import { renderSweepSvg } from './lib/sweep-svg';
import { freePort, gatewayTarget, startBareProxyProcess, startMock } from './lib/targets';

/**
 * How long each scenario runs: `default` fits in a few minutes on a shared 2-core machine, `full` for a quiet machine,
 * `quick` to try things, `smoke` for the test suite.
 */
export const PROFILES = {
  default: { rounds: 5, perRound: 100, seconds: 2, trials: 3, streamRounds: 3, streamPerRound: 50, openStreams: 2000, tasksForReads: 300 },
  full: { rounds: 10, perRound: 200, seconds: 4, trials: 3, streamRounds: 5, streamPerRound: 100, openStreams: 2000, tasksForReads: 1000 },
  quick: { rounds: 2, perRound: 20, seconds: 1, trials: 1, streamRounds: 2, streamPerRound: 10, openStreams: 200, tasksForReads: 50 },
  smoke: { rounds: 1, perRound: 5, seconds: 1, trials: 1, streamRounds: 1, streamPerRound: 3, openStreams: 20, tasksForReads: 10 },
} as const;

export interface BenchOptions {
  profile: keyof typeof PROFILES;
  portkey: boolean;
  /** real-Postgres task scenario; needs TEST_DATABASE_URL or BENCH_DATABASE_URL */
  databaseUrl?: string;
  /** with databaseUrl: the WORKERS=1 vs 2 scenario (limits in Redis) */
  redisUrl?: string;
  /** requests of the flat-RSS run; 0 leaves it out */
  leakRequests: number;
  writeDocs: boolean;
  log: (line: string) => void;
}

export interface BenchResults {
  machine: { nproc: number; node: string; cpu: string; profile: string };
  sequential: Record<string, { median: number; p99: number }>;
  sweep: Record<string, Record<number, LoadResult>>;
  streaming: { ttfb: Record<string, { median: number; p99: number }>; chunksPerSecond: Record<string, number>; chunks: number };
  translation: { sameFormatChunksPerSecond: number; anthropicInChunksPerSecond: number } | null;
  /** the gateway on PostgreSQL: video tasks, and its idle RSS and CPU per chat request beside the embedded store's */
  tasks: {
    creationsPerSecond: number;
    readsPerSecond: number;
    readP99: number;
    activeTasks: number;
    rssOpenStreamsMb: number;
    idleRssMb: number;
    chatCpuPerRequestUs: number;
  } | null;
  memory: {
    rssIdleMb: number;
    /** the bare proxy's idle RSS, for scale */
    bareIdleMb: number;
    /** Portkey's idle RSS, when it ran */
    portkeyIdleMb?: number;
    rssOpenStreamsMb: number;
    openStreams: number;
    rssAfter: Array<{ requests: number; rssMb: number }>;
  };
  /** user + system CPU of the whole process tree per completed request, c=16, by target */
  cpuPerRequestUs: Record<string, number>;
  /** WORKERS=1 and WORKERS=2 at c=128 on PostgreSQL + Redis */
  workers: { 1: LoadResult; 2: LoadResult } | null;
  slowUpstream: Record<string, LoadResult>;
  /** CPU µs the built-in guardrails add to a request of a 2 kB prompt (issue 38), measured in this process */
  guardrails?: GuardrailsBench;
  /** the response cache: hit and miss latency against a 50 ms upstream (issue 38), a gateway of its own */
  cache?: CacheBench;
  /** what could not be measured, and why */
  notes: string[];
}

export async function runBenchmark(opts: BenchOptions): Promise<BenchResults> {
  const log = opts.log;
  const P = PROFILES[opts.profile];
  const procs: Proc[] = [];
  const dirs: string[] = [];
  try {
    buildGateway();
    const ports = { instant: await freePort(), slow: await freePort(), trickle: await freePort() };
    procs.push(await startMock(ports.instant));
    procs.push(await startMock(ports.slow, 60, 10));
    procs.push(await startMock(ports.trickle, 0, 0, 50));
    const gw = await startGateway('gateway', gatewayConfig(ports));
    procs.push(gw.proc);
    dirs.push(gw.dir);
    // the yardstick forwards to the instant mock only: every ratio is taken there
    const bare = await startBareProxyProcess(ports.instant, gw.dir);
    procs.push(bare.proc);
    let portkeyUrl: string | undefined;
    if (opts.portkey) {
      const entry = ensurePortkey(log);
      const pkPort = await freePort();
      procs.push(
        await startProcess(
          'portkey',
          process.execPath,
          [entry, '--headless', `--port=${pkPort}`],
          { NODE_ENV: 'production' },
          /Ready for connections|running at/i,
        ),
      );
      portkeyUrl = `http://127.0.0.1:${pkPort}`;
    }

    const mk = (upstream: keyof typeof ports, stream: boolean): Target[] => {
      const ts: Target[] = [
        { name: 'direct', url: `http://127.0.0.1:${ports[upstream]}/v1/chat/completions`, headers: {}, body: chatBody('mock', stream) },
        ...(upstream === 'instant'
          ? [{ name: 'bare', url: `${bare.url}/v1/chat/completions`, headers: {}, body: chatBody('mock', stream) }]
          : []),
        {
          name: 'gateway',
          url: `${gw.url}/v1/chat/completions`,
          headers: { authorization: `Bearer ${BENCH_KEY}` },
          body: chatBody(`bench-${upstream}`, stream),
        },
      ];
      if (portkeyUrl) {
        ts.push({
          name: 'portkey',
          url: `${portkeyUrl}/v1/chat/completions`,
          body: chatBody('mock', stream),
          headers: {
            authorization: 'Bearer sk-upstream-bench',
            'x-portkey-provider': 'openai',
            'x-portkey-custom-host': `http://127.0.0.1:${ports[upstream]}/v1`,
          },
        });
      }
      return ts;
    };
    const plain = mk('instant', false);
    const gatewayPlain = plain.find((t) => t.name === 'gateway')!;
    for (const t of plain) await timedRequest(t); // each target answers before load
    // A target that cannot stream (Portkey 1.15 on Node 20 answers 500 "TypeError: immutable") leaves the streaming scenarios.
    const notes: string[] = process.env.BENCH_NOTE ? [process.env.BENCH_NOTE] : [];
    const streamTargets: Target[] = [];
    for (const t of mk('instant', true)) {
      const ok = await timedRequest(t).then(
        () => true,
        (e: Error) => (notes.push(`${t.name} cannot stream against the mock (${e.message}); left out of the streaming scenario.`), false),
      );
      if (ok) streamTargets.push(t);
    }
    await new Promise((r) => setTimeout(r, 3000)); // idle: 3 s after the warm-up requests
    const rssIdleMb = treeRssMb(gw.proc.child.pid!);
    const bareIdleMb = treeRssMb(bare.proc.child.pid!);
    const portkeyPid = procs.find((p) => p.name === 'portkey')?.child.pid;
    const portkeyIdleMb = portkeyPid ? treeRssMb(portkeyPid) : undefined;

    log('1/6 sequential added latency');
    const sequential = await interleavedSequential(plain, P.rounds, P.perRound);

    log('2/6 concurrency sweep');
    const sweep: BenchResults['sweep'] = {};
    for (const c of [1, 16, 128]) {
      for (const t of plain) {
        sweep[t.name] ??= {};
        sweep[t.name]![c] = await loadTrials(t!, c, P.seconds, P.trials);
        log(`  ${t.name} c=${c}: ${sweep[t.name]![c]!.rps.toFixed(0)} req/s`);
      }
    }
    log('  CPU time per request (process tree, c=16)');
    const cpuPerRequestUs: Record<string, number> = {};
    const pids: Record<string, number | undefined> = {
      bare: bare.proc.child.pid,
      gateway: gw.proc.child.pid,
      portkey: procs.find((p) => p.name === 'portkey')?.child.pid,
    };
    for (const t of plain) {
      const pid = pids[t.name];
      if (!pid) continue;
      const before = treeCpuSeconds(pid);
      const run = await load(t!, 16, P.seconds);
      cpuPerRequestUs[t.name] = ((treeCpuSeconds(pid) - before) / Math.max(1, run.requests)) * 1e6;
      log(`  ${t.name}: ${cpuPerRequestUs[t.name]!.toFixed(0)} µs`);
    }
    {
      // one text embedded as the openai SDK asks it (base64), beside the chat request above
      const embeddings = gatewayTarget(gw.url, 'embeddings', { name: 'gateway-embeddings' });
      await timedRequest(embeddings);
      const before = treeCpuSeconds(gw.proc.child.pid!);
      const run = await load(embeddings, 16, P.seconds);
      if (run.non2xx + run.errors > 0) throw new Error(`embeddings: ${run.non2xx} non-2xx answers, ${run.errors} errors`);
      cpuPerRequestUs[embeddings.name] = ((treeCpuSeconds(gw.proc.child.pid!) - before) / Math.max(1, run.requests)) * 1e6;
      log(`  ${embeddings.name}: ${cpuPerRequestUs[embeddings.name]!.toFixed(0)} µs`);
    }
    const slowUpstream: BenchResults['slowUpstream'] = {};
    for (const t of mk('slow', false)) slowUpstream[t.name] = await load(t, 128, P.seconds);

    log('3/6 streaming');
    const ttfb = await interleavedSequential(streamTargets, P.streamRounds, P.streamPerRound, 0);
    const chunksPerSecond: Record<string, number> = {};
    for (const t of streamTargets) chunksPerSecond[t.name] = (await loadTrials(t, 16, P.seconds, P.trials)).rps * CHUNKS;

    log('4/6 translation under load (Anthropic messages in, OpenAI upstream out)');
    let translation: BenchResults['translation'] = null;
    const anthropic = gatewayTarget(gw.url, 'anthropic', { name: 'anthropic-in', model: 'bench-instant' });
    const probe = await timedRequest(anthropic).then(
      () => true,
      () => false,
    );
    if (probe) {
      translation = {
        sameFormatChunksPerSecond: chunksPerSecond.gateway!,
        anthropicInChunksPerSecond: (await loadTrials(anthropic, 16, P.seconds, P.trials)).rps * CHUNKS,
      };
    } else log('  skipped: /v1/messages is not served by this build');

    log('5/6 the PostgreSQL store: idle memory, CPU per request, video tasks');
    let tasks: BenchResults['tasks'] = null;
    if (opts.databaseUrl) tasks = await taskScenario(opts.databaseUrl, P, procs, dirs, log, ports);
    else log('  skipped: set TEST_DATABASE_URL or BENCH_DATABASE_URL');

    log('5b/6 WORKERS=1 vs 2 (PostgreSQL store, Redis limits)');
    let workers: BenchResults['workers'] = null;
    if (opts.databaseUrl && opts.redisUrl) workers = await workersScenario(opts.databaseUrl, opts.redisUrl, P, ports.instant, log);
    else log('  skipped: needs PostgreSQL and Redis');

    log('6/6 memory');
    const openStreams = P.openStreams;
    const trickle = mk('trickle', true).find((t) => t.name === 'gateway')!;
    const rssOpenStreamsMb = await openManyStreams(trickle, openStreams, gw.proc.child.pid!);
    const rssAfter: BenchResults['memory']['rssAfter'] = [{ requests: 0, rssMb: treeRssMb(gw.proc.child.pid!) }];
    const slices = opts.leakRequests > 0 ? 4 : 0;
    for (let i = 1; i <= slices; i++) {
      const amount = Math.ceil(opts.leakRequests / slices);
      await load(gatewayPlain, Math.min(64, amount), 0, { amount });
      rssAfter.push({ requests: Math.ceil(opts.leakRequests / slices) * i, rssMb: treeRssMb(gw.proc.child.pid!) });
      log(`  after ${rssAfter[rssAfter.length - 1]!.requests} requests: ${rssAfter[rssAfter.length - 1]!.rssMb.toFixed(0)} MB`);
    }

    log('guardrails: CPU per request');
    const guardrails = opts.profile === 'smoke' || opts.profile === 'quick' ? benchGuardrails(2000, 3) : benchGuardrails();
    log(`  ${guardrailsLine(guardrails)}`);

    log('response cache: hit vs miss, 50 ms upstream');
    const small = opts.profile === 'smoke' || opts.profile === 'quick';
    const cache = await benchCache({ rounds: small ? 1 : 5, perRound: small ? 5 : 40, redisUrl: opts.redisUrl }).catch((e: Error) => {
      notes.push(`response cache not measured: ${e.message}`);
      return undefined;
    });
    if (cache) log(`  ${cacheLine(cache)}`);

    const results: BenchResults = {
      machine: { nproc: os.cpus().length, node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown', profile: opts.profile },
      sequential,
      sweep,
      streaming: { ttfb, chunksPerSecond, chunks: CHUNKS },
      translation,
      tasks,
      memory: { rssIdleMb, bareIdleMb, portkeyIdleMb, rssOpenStreamsMb, openStreams, rssAfter },
      slowUpstream,
      cpuPerRequestUs,
      workers,
      guardrails,
      cache,
      notes,
    };
    if (opts.writeDocs) {
      // kept (untracked) so `BENCH_RENDER_ONLY=1` can render the report again after bench/results/levers.md changed
      mkdirSync(path.join(ROOT, '.bench-tmp'), { recursive: true });
      writeFileSync(LAST_RESULTS, JSON.stringify(results));
      writeFileSync(path.join(ROOT, 'docs/benchmarks.md'), renderReport(results));
      writeFileSync(path.join(ROOT, 'bench/results/sweep.svg'), renderSweepSvg(results));
      const runs = path.join(ROOT, 'bench/results/runs.md');
      if (!existsSync(runs))
        writeFileSync(
          runs,
          '# Benchmark runs\n\nOne targets table per `npm run bench`, newest last: the spread between runs on this shared machine.\n',
        );
      appendFileSync(
        runs,
        [
          '',
          `## ${new Date().toISOString().slice(0, 16)}Z (${results.machine.nproc} cores, Node ${results.machine.node}; the machine's speed: the mock alone ${Math.round(results.sweep.direct?.[16]?.rps ?? 0)} req/s at c=16, the bare proxy ${Math.round(results.sweep.bare?.[16]?.rps ?? 0)}; ${results.machine.profile} profile)`,
          '',
          ...targetsTable(results),
          '',
        ].join('\n'),
      );
      log('wrote docs/benchmarks.md and bench/results/sweep.svg');
    }
    log('');
    for (const l of targetsTable(results)) log(l);
    return results;
  } finally {
    closeAgent();
    for (const p of procs.reverse()) await p.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

const CHUNKS = 200;
const LAST_RESULTS = path.join(ROOT, '.bench-tmp/last-results.json');

if (require.main === module && process.env.BENCH_RENDER_ONLY === '1') {
  // the last run's figures, rendered with the current bench/results/levers.md (no measurement, no runs appended)
  const results = JSON.parse(readFileSync(LAST_RESULTS, 'utf8')) as BenchResults;
  writeFileSync(path.join(ROOT, 'docs/benchmarks.md'), renderReport(results));
  console.log('rendered docs/benchmarks.md from .bench-tmp/last-results.json');
} else if (require.main === module) {
  const profile = process.env.BENCH_QUICK === '1' ? 'quick' : process.env.BENCH_FULL === '1' ? 'full' : 'default';
  runBenchmark({
    profile,
    portkey: process.env.BENCH_PORTKEY !== '0',
    databaseUrl:
      process.env.BENCH_DATABASE_URL ??
      process.env.TEST_DATABASE_URL ??
      (tryLocalPostgres() ? 'postgres://postgres@127.0.0.1:5432/postgres' : undefined),
    redisUrl: process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? (tryLocalRedis() ? 'redis://127.0.0.1:6379' : undefined),
    // the flat-RSS run is long (1,000,000 requests: ~10 minutes on a fast machine): only the full run does it unasked
    leakRequests: Number(process.env.BENCH_LEAK_REQUESTS ?? (profile === 'quick' ? 4000 : profile === 'full' ? 1_000_000 : 0)),
    writeDocs: true,
    log: (l) => console.log(l),
  }).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

function tryLocalRedis(): boolean {
  try {
    return execFileSync('redis-cli', ['-h', '127.0.0.1', 'ping']).toString().includes('PONG');
  } catch {
    return false;
  }
}

function tryLocalPostgres(): boolean {
  try {
    execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q']);
    return true;
  } catch {
    return false;
  }
}

export { median };
