/**
 * `npm run bench:cache`: the response cache's hit latency (issue 38). Starts the mock upstream with 50 ms latency
 * (BENCH_LATENCY_MS) and the gateway as `npm start` runs it (embedded store; REDIS_URL, when set, puts the cache on
 * Redis), a text model and an embedding model with `cache` on. Sequential requests, hits and misses interleaved in
 * rounds so both see the same machine: a miss asks something new each time (it reaches the upstream and is stored), a
 * hit repeats what a warm-up request stored. Prints JSON; `-- --write` appends a row to bench/results/cache.md.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeAgent, median, percentile, timedRequest, type Target } from './lib/measure';
import { BENCH_KEY, buildGateway, GATEWAY_ARGS, startProcess } from './lib/processes';
import { startMock } from './lib/targets';

export interface CacheBench {
  latencyMs: number;
  store: 'database' | 'redis';
  /** ms, by ask, hit and miss: the median of the rounds' medians and the p99 of every sample */
  chat: { hit: { p50: number; p99: number }; miss: { p50: number; p99: number } };
  embeddings: { hit: { p50: number; p99: number }; miss: { p50: number; p99: number } };
  samples: number;
}

function writeConfig(dir: string, mockPort: number): string {
  const file = path.join(dir, 'gateway.json');
  const cache = { ttlSeconds: 3600 };
  writeFileSync(
    file,
    JSON.stringify({
      providers: [
        { id: 'm', type: 'openai-compatible', baseUrl: `http://127.0.0.1:${mockPort}/v1`, apiKey: 'sk-upstream-bench' },
        { id: 'o', type: 'openai', baseUrl: `http://127.0.0.1:${mockPort}/v1`, apiKey: 'sk-upstream-bench' },
      ],
      models: [
        { id: 'bench', kind: 'text', provider: 'm', upstreamModel: 'mock', cache },
        { id: 'bench-embed', kind: 'embedding', provider: 'o', upstreamModel: 'mock-embed', cache },
      ],
      groups: [{ name: 'default', models: ['*'] }],
      keys: [{ key: BENCH_KEY, account: 'bench', group: 'default' }],
    }),
  );
  return file;
}

const headers = { authorization: `Bearer ${BENCH_KEY}` };
const chat = (url: string, text: string): Target => ({
  name: 'chat',
  url: `${url}/v1/chat/completions`,
  headers,
  body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: text }] }),
});
const embed = (url: string, text: string): Target => ({
  name: 'embeddings',
  url: `${url}/v1/embeddings`,
  headers,
  body: JSON.stringify({ model: 'bench-embed', input: text, encoding_format: 'base64' }),
});

/** Rounds of `perRound` hits then `perRound` misses; answers p50 (median of round medians) and p99 of each. */
async function hitsAndMisses(ask: (text: string) => Target, rounds: number, perRound: number) {
  const stored = ask('The same question every time.');
  await timedRequest(stored);
  const runId = Date.now().toString(36);
  const hit: number[][] = [];
  const miss: number[][] = [];
  let n = 0;
  for (let r = 0; r < rounds; r++) {
    const h: number[] = [];
    const m: number[] = [];
    for (let i = 0; i < perRound; i++) h.push((await timedRequest(stored))[1]);
    for (let i = 0; i < perRound; i++) m.push((await timedRequest(ask(`A new question ${runId}-${n++}.`)))[1]);
    hit.push(h);
    miss.push(m);
  }
  const figures = (xs: number[][]) => ({ p50: round(median(xs.map(median))), p99: round(percentile(xs.flat(), 99)) });
  return { hit: figures(hit), miss: figures(miss) };
}

const round = (x: number) => Math.round(x * 100) / 100;

export async function benchCache(
  opts: { rounds?: number; perRound?: number; latencyMs?: number; redisUrl?: string } = {},
): Promise<CacheBench> {
  const rounds = opts.rounds ?? 5;
  const perRound = opts.perRound ?? 40;
  const latency = opts.latencyMs ?? 50;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-bench-cache-'));
  const mockPort = 23000 + Math.floor(Math.random() * 500);
  const configFile = writeConfig(dir, mockPort);
  const mock = await startMock(mockPort, latency);
  const gw = await startProcess(
    'gateway',
    process.execPath,
    GATEWAY_ARGS,
    {
      PORT: String(mockPort + 600),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      GATEWAY_CONFIG: configFile,
      REDIS_URL: opts.redisUrl ?? '',
    },
    /Gateway listening/,
  );
  const url = `http://127.0.0.1:${mockPort + 600}`;
  try {
    const probe = embed(url, `check ${Date.now()}`);
    const check = await fetch(probe.url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: probe.body });
    const status = check.headers.get('x-gateway-cache');
    if (status !== 'miss') throw new Error(`the response cache is not on (x-gateway-cache: ${status})`);
    return {
      latencyMs: latency,
      store: opts.redisUrl ? 'redis' : 'database',
      chat: await hitsAndMisses((t) => chat(url, t), rounds, perRound),
      embeddings: await hitsAndMisses((t) => embed(url, t), rounds, perRound),
      samples: rounds * perRound,
    };
  } finally {
    closeAgent();
    await gw.stop();
    await mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One line for the bench report. */
export function cacheLine(b: CacheBench): string {
  const f = (x: { hit: { p50: number; p99: number }; miss: { p50: number; p99: number } }) =>
    `hit p50 ${x.hit.p50} ms / p99 ${x.hit.p99} ms, miss p50 ${x.miss.p50} ms / p99 ${x.miss.p99} ms`;
  return `response cache (${b.store}, ${b.latencyMs} ms upstream): chat ${f(b.chat)}; embeddings ${f(b.embeddings)}`;
}

/** One row of bench/results/cache.md (its header names the columns). */
export function cacheRow(b: CacheBench): string {
  const ms = (x: { p50: number; p99: number }) => `${x.p50} / ${x.p99}`;
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  return `| ${when} UTC | ${b.store} | ${ms(b.chat.hit)} | ${ms(b.chat.miss)} | ${ms(b.embeddings.hit)} | ${ms(b.embeddings.miss)} | ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)} |`;
}

async function main(): Promise<void> {
  buildGateway();
  const result = await benchCache({
    latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 50),
    redisUrl: process.env.REDIS_URL || undefined,
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    perRound: Number(process.env.BENCH_PER_ROUND ?? 40),
  });
  console.log(JSON.stringify(result, null, 2));
  if (process.argv.includes('--write')) appendFileSync(path.join(__dirname, 'results', 'cache.md'), `${cacheRow(result)}\n`);
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
