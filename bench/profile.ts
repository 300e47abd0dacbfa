/**
 * `npm run bench:profile`: where the gateway's time goes. Runs the gateway under `node --cpu-prof` against the mock
 * upstream, loads it (c=16, non-streaming, 5 s), and writes the self time by package and the top functions to
 * bench/results/profile.md. `-- --stream`: streamed completions (200 chunks each) instead, written to
 * bench/results/profile-stream.md; `-- --anthropic`: the same streams asked through /v1/messages (translation), to
 * bench/results/profile-anthropic.md; `-- --embeddings`: /v1/embeddings of one text asked as base64, to
 * bench/results/profile-embeddings.md.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load } from './lib/measure';
import { askFromArgs, gatewayTarget, startMock } from './lib/targets';
import { ROOT, startProcess, writeMockGatewayConfig } from './lib/processes';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Self time per function over the samples of the last `windowUs` of the profile (the load, not start-up). */
function summarize(file: string, windowUs: number) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
    endTime: number;
  };
  const from = p.endTime - windowUs;
  const dt = new Map<number, number>();
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    if (at >= from) dt.set(id, (dt.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  const byFn = new Map<string, number>();
  const byPkg = new Map<string, number>();
  let busy = 0;
  for (const n of p.nodes) {
    const t = dt.get(n.id) ?? 0;
    if (!t || n.callFrame.functionName === '(idle)') continue;
    busy += t;
    const url = n.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/packages\//, 'packages/');
    const pkg =
      /^packages\/[^/]+/.exec(url)?.[0] ??
      /^(@[^/]+\/[^/]+|[^/]+)\//.exec(url)?.[1] ??
      (url.startsWith('node:')
        ? 'node (http, streams, timers)'
        : n.callFrame.functionName.startsWith('(')
          ? n.callFrame.functionName
          : 'native (syscalls, writev, crypto)');
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + t);
    const key = `${n.callFrame.functionName || '(anonymous)'} (${url || 'native'}:${n.callFrame.lineNumber + 1})`;
    byFn.set(key, (byFn.get(key) ?? 0) + t);
  }
  // inclusive time of our own functions: node's internals, writev and the GC that our code causes show up as node's
  // in self time; counted here under every function of ours on the sampled stack (once per stack)
  const parent = new Map<number, ProfileNode>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const inclusive = new Map<string, number>();
  for (const n of p.nodes) {
    const t = dt.get(n.id) ?? 0;
    if (!t || n.callFrame.functionName === '(idle)') continue;
    const seen = new Set<string>();
    for (let at: ProfileNode | undefined = n; at; at = parent.get(at.id)) {
      const url = at.callFrame.url.replace(/.*\/packages\//, 'packages/');
      if (!url.startsWith('packages/') || url.includes('node_modules')) continue;
      seen.add(`${at.callFrame.functionName || '(anonymous)'} (${url}:${at.callFrame.lineNumber + 1})`);
    }
    for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + t);
  }
  const pct = (v: number) => `${((100 * v) / busy).toFixed(1)} %`;
  return {
    inclusive: [...inclusive]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40)
      .map(([k, v]) => `| \`${k}\` | ${pct(v)} |`),
    packages: [...byPkg]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([k, v]) => `| ${k} | ${pct(v)} |`),
    functions: [...byFn]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([k, v]) => `| \`${k}\` | ${pct(v)} |`),
  };
}

async function main(): Promise<void> {
  const ask = askFromArgs(process.argv);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-profile-'));
  const mockPort = 19000 + Math.floor(Math.random() * 500);
  const gwPort = mockPort + 600;
  const configFile = writeMockGatewayConfig(dir, mockPort);
  const mock = await startMock(mockPort);
  const gw = await startProcess(
    'gateway',
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', 'packages/server/src/main.ts'],
    {
      PORT: String(gwPort),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      GATEWAY_CONFIG: configFile,
      LOG_LEVEL: 'info',
    },
    /Gateway listening/,
  );
  const target = gatewayTarget(`http://127.0.0.1:${gwPort}`, ask);
  await load(target, 16, 2);
  const loadStart = Date.now();
  const r = await load(target, 16, 5);
  if (r.non2xx || r.errors) throw new Error(`${r.non2xx + r.errors} requests failed while profiling`);
  await gw.stop();
  const windowUs = (Date.now() - loadStart) * 1000;
  await mock.stop();
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
  if (process.env.BENCH_PROFILE_KEEP) writeFileSync(process.env.BENCH_PROFILE_KEEP, readFileSync(file!));
  const s = summarize(file!, windowUs);
  const md = [
    "# Where the gateway's time goes",
    '',
    `Generated by \`npm run bench:profile\`: the gateway under \`node --cpu-prof\`, default settings (undici upstream pools, PGlite, info logs), c=16 ${ask === 'anthropic' ? 'Anthropic messages in, streaming, OpenAI-compatible upstream (200 chunks a response)' : ask === 'stream' ? 'streaming (200 chunks a response)' : ask === 'embeddings' ? 'embeddings of one text (base64)' : 'non-streaming'} against the instant mock for 5 s (${r.rps.toFixed(0)} req/s while profiled; only the samples of the measured load and the shutdown after it are counted, not start-up or warm-up). Self time, idle excluded.`,
    '',
    '## By package',
    '',
    '| package | self time |',
    '|---|---|',
    ...s.packages,
    '',
    '## Top functions',
    '',
    '| function | self time |',
    '|---|---|',
    ...s.functions,
    '',
    '## Our functions, inclusive time',
    '',
    'Time with the function on the stack (its callees included: node internals, writes and allocations it causes).',
    '',
    '| function | inclusive time |',
    '|---|---|',
    ...s.inclusive,
    '',
  ].join('\n');
  const out = `bench/results/profile${ask === 'chat' ? '' : `-${ask}`}.md`;
  writeFileSync(path.join(ROOT, out), md);
  rmSync(dir, { recursive: true, force: true });
  console.log(md);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
