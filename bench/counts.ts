/**
 * `npm run bench:counts` (issue 40): what one proxied request costs, counted rather than timed, for the gateway (as
 * `npm start` runs it: embedded store unless DATABASE_URL, info logs, usage rows on) beside the bare proxy (the
 * yardstick, bench/bare-proxy.ts), both in front of the same mock upstream:
 * - syscalls per request: `strace -c -f` attached to the process (all its threads: libuv's pool, the embedded store's
 *   thread) over a fixed number of requests, the busiest calls named;
 * - on the main thread (bench/lib/count-hooks.cjs, preloaded into both): bytes the V8 heap allocated, promises,
 *   timers, immediates, other async resources and event listeners created per request.
 * Counts do not depend on the machine's load, so one run is enough; strace slows both sides alike, and the counts
 * runs are separate from the hooks runs so neither disturbs the other.
 * Flags: `-- --stream` (streamed completions, 200 chunks each); `-- --sites`: where the gateway's promises and timers are made
 * instead (the first two frames of each, per request, through the bundle's source map), written to
 * bench/results/promise-sites.md. Env: BENCH_REQUESTS (default 2000), BENCH_CONNECTIONS
 * (16). Prints a markdown table and writes it to bench/results/counts.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, type Target } from './lib/measure';
import { buildGateway, GATEWAY_ARGS, ROOT, startProcess, writeMockGatewayConfig, type Proc } from './lib/processes';
import { freePort, gatewayTarget, startBareProxyProcess, startMock } from './lib/targets';

const HOOKS = ['--require', path.join(ROOT, 'bench/lib/count-hooks.cjs')];
type Counts = Record<string, number>;

/** The preloaded hooks' totals, read by signalling the process and waiting for the file's next sequence number. */
async function hookTotals(proc: Proc, file: string): Promise<Counts> {
  const { sites: _sites, ...totals } = await hookDump(proc, file);
  return totals as Counts;
}

async function hookDump(proc: Proc, file: string): Promise<Record<string, unknown>> {
  const seqOf = () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Counts).seq! : 0);
  const before = seqOf();
  proc.child.kill('SIGUSR2');
  for (let i = 0; i < 500 && seqOf() === before; i++) await new Promise((r) => setTimeout(r, 20));
  const { seq: _seq, ...totals } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return totals;
}

/** Promises made per request, by site, over `requests` requests after a warm-up (COUNT_HOOKS_SITES in the gateway). */
async function promiseSites(proc: Proc, target: Target, file: string, requests: number, connections: number): Promise<string> {
  await load(target, connections, 0, { amount: 300 });
  const sitesOf = async () => ((await hookDump(proc, file)).sites ?? {}) as Counts;
  const before = await sitesOf();
  const r = await load(target, connections, 0, { amount: requests });
  const after = await sitesOf();
  const rows = Object.entries(after)
    .map(([k, n]) => [k, (n - (before[k] ?? 0)) / r.requests] as const)
    .filter(([, n]) => n >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  const sum = (timers: boolean) => rows.reduce((t, [k, n]) => (k.startsWith('timer:') === timers ? t + n : t), 0);
  return [
    `${sum(false).toFixed(1)} promises and ${sum(true).toFixed(1)} timers a request over ${r.requests} requests, by where they are made (first two frames; timers marked):`,
    '',
    '| per request | site |',
    '|---|---|',
    ...rows.slice(0, 60).map(([k, n]) => `| ${n.toFixed(2)} | \`${k.replace(/\|/g, '\\|')}\` |`),
    '',
  ].join('\n');
}

/** Syscalls of `pid` (every thread) while `work` runs: the total and the calls by name. */
async function syscalls(pid: number, work: () => Promise<unknown>, dir: string): Promise<{ total: number; byName: Counts }> {
  const out = path.join(dir, `strace-${pid}.txt`);
  const strace = spawn('strace', ['-c', '-f', '-p', String(pid), '-o', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  strace.stderr.on('data', (d: Buffer) => (err += d.toString()));
  for (let i = 0; i < 250 && !/attached/.test(err); i++) await new Promise((r) => setTimeout(r, 20));
  await work();
  const exited = new Promise((r) => strace.once('exit', r));
  strace.kill('SIGINT');
  await exited;
  const byName: Counts = {};
  let total = 0;
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    // "% time  seconds  usecs/call  calls  errors syscall": the name is the last column, calls the first integer after usecs/call
    const cols = line.trim().split(/\s+/);
    if (cols.length < 5 || !/^\d/.test(cols[0]!)) continue;
    const calls = Number(cols[3]);
    if (cols.at(-1) === 'total') total = calls;
    else if (Number.isFinite(calls)) byName[cols.at(-1)!] = calls;
  }
  return { total, byName };
}

async function measure(name: string, proc: Proc, target: Target, hooksFile: string, requests: number, connections: number, dir: string) {
  const run = () => load(target, connections, 0, { amount: requests });
  await load(target, connections, 0, { amount: Math.min(requests, 500) }); // warm-up
  const before = await hookTotals(proc, hooksFile);
  const r = await run();
  const after = await hookTotals(proc, hooksFile);
  if (r.errors + r.non2xx) throw new Error(`${name}: ${r.errors + r.non2xx} failed requests`);
  const perRequest = Object.fromEntries(Object.keys(after).map((k) => [k, (after[k]! - before[k]!) / r.requests]));
  const sys = await syscalls(proc.child.pid!, run, dir);
  return {
    perRequest: { syscalls: sys.total / requests, ...perRequest },
    topSyscalls: Object.entries(sys.byName)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([n, c]) => `${n} ${(c / requests).toFixed(2)}`),
  };
}

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(2));

async function main(): Promise<void> {
  const stream = process.argv.includes('--stream');
  const bySite = process.argv.includes('--sites');
  const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-counts-'));
  const mockPort = await freePort();
  buildGateway();
  const mock = await startMock(mockPort);
  const procs: Proc[] = [mock];
  try {
    const gwPort = await freePort();
    const gwHooks = path.join(dir, 'gateway.json.counts');
    const gw = await startProcess(
      'gateway',
      process.execPath,
      [...GATEWAY_ARGS.slice(0, -1), ...HOOKS, ...(bySite ? ['--enable-source-maps'] : []), GATEWAY_ARGS.at(-1)!],
      {
        PORT: String(gwPort),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, 'data'),
        GATEWAY_CONFIG: writeMockGatewayConfig(dir, mockPort),
        LOG_LEVEL: 'info',
        COUNT_HOOKS_OUT: gwHooks,
        ...(bySite ? { COUNT_HOOKS_SITES: '1' } : {}),
      },
      /Gateway listening/,
    );
    procs.push(gw);
    const target = gatewayTarget(`http://127.0.0.1:${gwPort}`, stream ? 'stream' : 'chat');
    if (bySite) {
      const table = await promiseSites(gw, target, gwHooks, Math.min(requests, 1000), connections);
      const title = `# Promises by site (\`npm run bench:counts -- --sites${stream ? ' --stream' : ''}\`)\n\n${new Date().toISOString().slice(0, 16)}Z, ${stream ? 'streamed' : 'non-streamed'} chat completions, embedded store. `;
      console.log(title + table);
      writeFileSync(path.join(ROOT, `bench/results/promise-sites${stream ? '-stream' : ''}.md`), title + table);
      return;
    }
    const bareHooks = path.join(dir, 'bare.json');
    const bare = await startBareProxyProcess(mockPort, dir, HOOKS, { COUNT_HOOKS_OUT: bareHooks });
    procs.push(bare.proc);
    const body = JSON.stringify({ model: 'mock', stream, messages: [{ role: 'user', content: 'Say hello.' }] });
    const b = await measure(
      'bare',
      bare.proc,
      { name: 'bare', url: `${bare.url}/v1/chat/completions`, headers: {}, body },
      bareHooks,
      requests,
      connections,
      dir,
    );
    const g = await measure('gateway', gw, target, gwHooks, requests, connections, dir);
    const rows = Object.entries(g.perRequest).map(([k, ours]) => {
      const theirs = (b.perRequest as Counts)[k] ?? 0;
      return `| ${k} | ${fmt(theirs)} | ${fmt(ours)} | ${theirs > 0 ? `${(ours / theirs).toFixed(1)}×` : '—'} |`;
    });
    const report = [
      `## ${new Date().toISOString().slice(0, 16)}Z: per ${stream ? 'streamed (200 chunks)' : 'non-streamed'} request, ${requests} requests at c=${connections}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'} store`,
      '',
      '| per request | bare proxy | gateway | ratio |',
      '|---|---|---|---|',
      ...rows,
      '',
      `Busiest syscalls per request: bare proxy ${b.topSyscalls.join(', ')}; gateway ${g.topSyscalls.join(', ')}.`,
      '',
    ].join('\n');
    console.log(report);
    const file = path.join(ROOT, 'bench/results/counts.md');
    const head =
      '# Per-request counts (`npm run bench:counts`)\n\nNewest first. Rerun: `npm run bench:counts` and `npm run bench:counts -- --stream`.\n\n';
    const old = existsSync(file) ? readFileSync(file, 'utf8').replace(head, '') : '';
    writeFileSync(file, head + report + '\n' + old);
  } finally {
    for (const p of procs.reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
