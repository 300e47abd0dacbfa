/**
 * `npm run bench:stream-ratio`: the streaming target's figure in one run: chunks per second through the gateway (as
 * `npm start` runs it) and through the bare proxy (bench/bare-proxy.ts), both in front of the same mock upstream
 * (200 chunks a completion), loaded in turn at c=16 (BENCH_CONNECTIONS) for BENCH_SECONDS (default 5), BENCH_TRIALS
 * times (default 3, the sides alternating), plus the gateway's CPU per chunk. `-- --anthropic` asks the gateway
 * through /v1/messages instead (a translated stream). `-- --gemini` asks streamGenerateContent of a Gemini mock
 * (started from this file, `--gemini-mock <port>`) twice: forwarded (the upstream's own events) and through the full
 * path (a model with a response cache, asked not to use it, which takes the forwarding offer back). Prints one JSON
 * line: the medians and the gateway's share.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { load, median, type Target } from './lib/measure';
import { BENCH_KEY, buildGateway, GATEWAY_ARGS, startProcess, treeCpuSeconds, writeMockGatewayConfig, type Proc } from './lib/processes';
import { freePort, gatewayTarget, startBareProxyProcess, startMock } from './lib/targets';

const CHUNKS = 200; // what bench/mock-upstream.ts (and the Gemini mock below) streams per completion

/**
 * Gemini's own event shape, as generativelanguage.googleapis.com writes it: a space after each colon, usage on every
 * event, CRLF line ends.
 */
function geminiEvent(text: string, last: boolean): string {
  const finish = last ? '"finishReason": "STOP",' : '';
  const usage = last
    ? `"promptTokenCount": 5,"candidatesTokenCount": ${CHUNKS},"totalTokenCount": ${CHUNKS + 5}`
    : '"promptTokenCount": 5,"totalTokenCount": 5';
  return (
    `data: {"candidates": [{"content": {"parts": [{"text": ${JSON.stringify(text)}}],"role": "model"},${finish}"index": 0}],` +
    `"usageMetadata": {${usage},"promptTokensDetails": [{"modality": "TEXT","tokenCount": 5}]},` +
    `"modelVersion": "gemini-2.5-flash","responseId": "mock-response-0001"}\r\n\r\n`
  );
}
const GEMINI_STREAM = geminiEvent('tok ', false).repeat(CHUNKS - 1) + geminiEvent('tok ', true);

/** The Gemini mock, as cheap as bench/mock-upstream.ts: the same canned stream for every request. */
function serveGeminiMock(port: number): void {
  http
    .createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(GEMINI_STREAM);
      });
    })
    .listen(port, '127.0.0.1', () => console.log(`gemini mock on ${port}`));
}

function writeGeminiGatewayConfig(dir: string, mockPort: number): string {
  const file = path.join(dir, 'gateway.json');
  const provider = { id: 'g', type: 'google', baseUrl: `http://127.0.0.1:${mockPort}`, apiKey: 'upstream-bench-key' };
  const models = [
    { id: 'bench', kind: 'text', provider: 'g', upstreamModel: 'gemini-2.5-flash' },
    { id: 'bench-full', kind: 'text', provider: 'g', upstreamModel: 'gemini-2.5-flash', cache: { ttlSeconds: 600 } },
  ];
  const keys = [{ key: BENCH_KEY, account: 'bench', group: 'default' }];
  writeFileSync(file, JSON.stringify({ providers: [provider], models, groups: [{ name: 'default', models: ['*'] }], keys }));
  return file;
}

const GEMINI_BODY = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] });
const geminiTarget = (name: string, base: string, model: string, headers: Record<string, string>): Target => ({
  name,
  url: `${base}/v1beta/models/${model}:streamGenerateContent?alt=sse`,
  headers,
  body: GEMINI_BODY,
});

/** The mock, the bare proxy in front of it, the gateway, and what to load each with. */
async function start(ask: string, dir: string, procs: Proc[]): Promise<{ gw: Proc; targets: Target[] }> {
  const gemini = ask === 'gemini';
  const mockPort = await freePort();
  const mockArgs = ['--import', 'tsx', 'bench/stream-ratio.ts', '--gemini-mock', String(mockPort)];
  procs.push(gemini ? await startProcess('gemini-mock', process.execPath, mockArgs, {}, /gemini mock on/) : await startMock(mockPort));
  const bare = await startBareProxyProcess(mockPort, dir);
  procs.push(bare.proc);
  const gwPort = await freePort();
  const env = {
    PORT: String(gwPort),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dir, 'data'),
    GATEWAY_CONFIG: gemini ? writeGeminiGatewayConfig(dir, mockPort) : writeMockGatewayConfig(dir, mockPort),
  };
  const gw = await startProcess('gateway', process.execPath, GATEWAY_ARGS, env, /Gateway listening/);
  procs.push(gw);
  const gwUrl = `http://127.0.0.1:${gwPort}`;
  if (!gemini) {
    const body = JSON.stringify({ model: 'mock', stream: true, messages: [{ role: 'user', content: 'Say hello.' }] });
    const chat = { name: 'bare', url: `${bare.url}/v1/chat/completions`, headers: {}, body };
    return { gw, targets: [chat, gatewayTarget(gwUrl, ask as 'stream' | 'anthropic')] };
  }
  const key = { 'x-goog-api-key': BENCH_KEY };
  return {
    gw,
    targets: [
      geminiTarget('bare', bare.url, 'gemini-2.5-flash', {}),
      geminiTarget('gateway', gwUrl, 'bench', key),
      geminiTarget('full', gwUrl, 'bench-full', { ...key, 'cache-control': 'no-cache, no-store' }),
    ],
  };
}

/** Every target loaded `trials` times, in turn (the order alternating): chunks per second and the gateway's CPU per chunk. */
async function measure(gw: Proc, targets: Target[], opts: { trials: number; connections: number; seconds: number }) {
  const chunks = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const cpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (const t of targets) await load(t, opts.connections, 2); // warm-up
  for (let i = 0; i < opts.trials; i++) {
    for (const t of i % 2 ? [...targets].reverse() : targets) {
      const before = treeCpuSeconds(gw.child.pid!);
      const r = await load(t, opts.connections, opts.seconds);
      if (r.errors + r.non2xx) throw new Error(`${t.name}: ${r.errors + r.non2xx} failed requests`);
      chunks.get(t.name)!.push(r.rps * CHUNKS);
      if (t.name !== 'bare') cpu.get(t.name)!.push(((treeCpuSeconds(gw.child.pid!) - before) / (r.requests * CHUNKS)) * 1e6);
    }
  }
  const bare = median(chunks.get('bare')!);
  const figures = (name: string, prefix: string) => ({
    [`${prefix}ChunksPerSecond`]: Math.round(median(chunks.get(name)!)),
    [`${prefix}Share`]: +(median(chunks.get(name)!) / bare).toFixed(3),
    [`${prefix}CpuPerChunkUs`]: +median(cpu.get(name)!).toFixed(2),
  });
  return {
    bareChunksPerSecond: Math.round(bare),
    ...figures('gateway', 'gateway'),
    ...(chunks.has('full') ? figures('full', 'fullPath') : {}),
  };
}

async function main(): Promise<void> {
  const mockAt = process.argv.indexOf('--gemini-mock');
  if (mockAt >= 0) return serveGeminiMock(Number(process.argv[mockAt + 1]));
  const opts = {
    seconds: Number(process.env.BENCH_SECONDS ?? 5),
    trials: Number(process.env.BENCH_TRIALS ?? 3),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  };
  const ask = process.argv.includes('--gemini') ? 'gemini' : process.argv.includes('--anthropic') ? 'anthropic' : 'stream';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-stream-ratio-'));
  buildGateway();
  const procs: Proc[] = [];
  try {
    const { gw, targets } = await start(ask, dir, procs);
    console.log(JSON.stringify({ ask, ...opts, ...(await measure(gw, targets, opts)) }));
  } finally {
    for (const p of procs.reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
