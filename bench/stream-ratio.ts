/**
 * `npm run bench:stream-ratio`: the streaming target's figure in one run: chunks per second through the gateway (as
 * `npm start` runs it) and through the bare proxy (bench/bare-proxy.ts), both in front of the same mock upstream
 * (200 chunks a completion), loaded in turn at c=16 (BENCH_CONNECTIONS) for BENCH_SECONDS (default 5), BENCH_TRIALS
 * times (default 3, the sides alternating), plus the gateway's CPU per chunk. `-- --anthropic` asks the gateway
 * through /v1/messages instead (a translated stream). `-- --gemini` asks streamGenerateContent of a Gemini mock
 * (started from this file, `--gemini-mock <port>`) twice: forwarded (the upstream's own events) and through the full
 * path (a model with a response cache, asked not to use it, which takes the forwarding offer back). `-- --responses`
 * does the same for a /v1/responses stream of an OpenAI Responses mock (`--responses-mock <port>`) in OpenAI's event
 * shape, whose full path relays each upstream event as a native event (what every such stream did before it was
 * forwarded). Prints one JSON line: the medians and the gateway's share.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { load, median, type Target } from './lib/measure';
import { BENCH_KEY, buildGateway, GATEWAY_ARGS, startProcess, treeCpuSeconds, writeMockGatewayConfig, type Proc } from './lib/processes';
import { freePort, gatewayTarget, startBareProxyProcess, startMock } from './lib/targets';

const CHUNKS = 200; // what bench/mock-upstream.ts (and the two mocks below) streams per completion, in text events

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

/**
 * OpenAI's Responses stream as api.openai.com writes it: named events, `sequence_number` second, padding on every
 * delta, the response object (with the request's settings echoed) on created, in_progress and completed; 200 text
 * deltas between the 5 events that open and close the message and the 3 that carry the response.
 */
function responsesStream(): string {
  let seq = 0;
  const ev = (type: string, fields: object) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`;
  const text = 'tok '.repeat(CHUNKS);
  const part = (t: string) => ({ type: 'output_text', annotations: [], logprobs: [], text: t });
  const item = (status: string, t?: string) => ({
    id: 'msg_68b1c2d3e4f5a6b7',
    type: 'message',
    status,
    content: t === undefined ? [] : [part(t)],
    role: 'assistant',
  });
  const usage = {
    input_tokens: 5,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: CHUNKS,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: CHUNKS + 5,
  };
  const response = (status: string, output: object[]) => ({
    id: 'resp_68b1c2d3e4f5a6b7',
    object: 'response',
    created_at: 1_756_000_000,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: 'gpt-5-mini-2025-08-07',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: 'minimal', summary: null },
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: status === 'completed' ? usage : null,
    user: null,
    metadata: {},
  });
  const at = { item_id: 'msg_68b1c2d3e4f5a6b7', output_index: 0, content_index: 0 };
  return (
    ev('response.created', { response: response('in_progress', []) }) +
    ev('response.in_progress', { response: response('in_progress', []) }) +
    ev('response.output_item.added', { output_index: 0, item: item('in_progress') }) +
    ev('response.content_part.added', { ...at, part: part('') }) +
    Array.from({ length: CHUNKS }, (_, i) =>
      ev('response.output_text.delta', { ...at, delta: 'tok ', logprobs: [], obfuscation: `pAd${i}x` }),
    ).join('') +
    ev('response.output_text.done', { ...at, text, logprobs: [] }) +
    ev('response.content_part.done', { ...at, part: part(text) }) +
    ev('response.output_item.done', { output_index: 0, item: item('completed', text) }) +
    ev('response.completed', { response: response('completed', [item('completed', text)]) })
  );
}

/** A mock as cheap as bench/mock-upstream.ts: the same canned stream for every request. */
function serveMock(kind: 'gemini' | 'responses', port: number): void {
  const stream = kind === 'gemini' ? GEMINI_STREAM : responsesStream();
  http
    .createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(stream);
      });
    })
    .listen(port, '127.0.0.1', () => console.log(`${kind} mock on ${port}`));
}

/** The gateway's config for a mock of another dialect: `bench` forwarded, `bench-full` through the full path. */
function writeDialectGatewayConfig(kind: 'gemini' | 'responses', dir: string, mockPort: number): string {
  const file = path.join(dir, 'gateway.json');
  const provider =
    kind === 'gemini'
      ? { id: 'up', type: 'google', baseUrl: `http://127.0.0.1:${mockPort}`, apiKey: 'upstream-bench-key' }
      : {
          id: 'up',
          type: 'openai',
          options: { api: 'responses' },
          baseUrl: `http://127.0.0.1:${mockPort}/v1`,
          apiKey: 'upstream-bench-key',
        };
  const upstreamModel = kind === 'gemini' ? 'gemini-2.5-flash' : 'gpt-5-mini';
  const models = [
    { id: 'bench', kind: 'text', provider: 'up', upstreamModel },
    { id: 'bench-full', kind: 'text', provider: 'up', upstreamModel, cache: { ttlSeconds: 600 } },
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
const responsesTarget = (name: string, base: string, model: string, headers: Record<string, string>): Target => ({
  name,
  url: `${base}/v1/responses`,
  headers,
  body: JSON.stringify({ model, input: 'Say hello.', stream: true }),
});

/** The mock, the bare proxy in front of it, the gateway, and what to load each with. */
async function start(ask: string, dir: string, procs: Proc[]): Promise<{ gw: Proc; targets: Target[] }> {
  const dialect = ask === 'gemini' || ask === 'responses' ? ask : undefined;
  const mockPort = await freePort();
  const mockArgs = ['--import', 'tsx', 'bench/stream-ratio.ts', `--${dialect}-mock`, String(mockPort)];
  procs.push(dialect ? await startProcess(`${dialect}-mock`, process.execPath, mockArgs, {}, /mock on/) : await startMock(mockPort));
  const bare = await startBareProxyProcess(mockPort, dir);
  procs.push(bare.proc);
  const gwPort = await freePort();
  const env = {
    PORT: String(gwPort),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dir, 'data'),
    GATEWAY_CONFIG: dialect ? writeDialectGatewayConfig(dialect, dir, mockPort) : writeMockGatewayConfig(dir, mockPort),
  };
  const gw = await startProcess('gateway', process.execPath, GATEWAY_ARGS, env, /Gateway listening/);
  procs.push(gw);
  const gwUrl = `http://127.0.0.1:${gwPort}`;
  if (!dialect) {
    const body = JSON.stringify({ model: 'mock', stream: true, messages: [{ role: 'user', content: 'Say hello.' }] });
    const chat = { name: 'bare', url: `${bare.url}/v1/chat/completions`, headers: {}, body };
    return { gw, targets: [chat, gatewayTarget(gwUrl, ask as 'stream' | 'anthropic')] };
  }
  // the same three loads for either dialect: the bare proxy, the forwarded path, the full path (cache asked not to serve)
  const [target, upstreamModel, auth] =
    dialect === 'responses'
      ? [responsesTarget, 'gpt-5-mini', { authorization: `Bearer ${BENCH_KEY}` }]
      : [geminiTarget, 'gemini-2.5-flash', { 'x-goog-api-key': BENCH_KEY }];
  const full = { 'cache-control': 'no-cache, no-store' };
  return {
    gw,
    targets: [
      target('bare', bare.url, upstreamModel, {}),
      target('gateway', gwUrl, 'bench', auth),
      target('full', gwUrl, 'bench-full', { ...auth, ...full }),
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
  for (const kind of ['gemini', 'responses'] as const) {
    const mockAt = process.argv.indexOf(`--${kind}-mock`);
    if (mockAt >= 0) return serveMock(kind, Number(process.argv[mockAt + 1]));
  }
  const opts = {
    seconds: Number(process.env.BENCH_SECONDS ?? 5),
    trials: Number(process.env.BENCH_TRIALS ?? 3),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  };
  const ask = (['gemini', 'responses', 'anthropic'] as const).find((a) => process.argv.includes(`--${a}`)) ?? 'stream';
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
