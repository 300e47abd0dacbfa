/**
 * `npm run bench:batch`: batch lines per second, and what a running batch does to live requests' p99. Starts the mock
 * upstream with 50 ms latency (BENCH_LATENCY_MS) and the gateway as `npm start` runs it (embedded store); measures the
 * live p99 at c=4 (BENCH_CONNECTIONS) alone, then a batch of BENCH_LINES (2,000) chat lines and the same live load
 * while it runs; prints JSON and appends the figures to bench/results/batch.md.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load } from './lib/measure';
import { BENCH_KEY, buildGateway, GATEWAY_ARGS, startProcess, writeMockGatewayConfig } from './lib/processes';
import { gatewayTarget, startMock } from './lib/targets';

async function main(): Promise<void> {
  const lines = Number(process.env.BENCH_LINES ?? 2000);
  const latency = Number(process.env.BENCH_LATENCY_MS ?? 50);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 4);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-bench-batch-'));
  const mockPort = 22000 + Math.floor(Math.random() * 500);
  const configFile = writeMockGatewayConfig(dir, mockPort);
  buildGateway();
  const mock = await startMock(mockPort, latency);
  const gw = await startProcess(
    'gateway',
    process.execPath,
    GATEWAY_ARGS,
    { PORT: String(mockPort + 600), HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data'), GATEWAY_CONFIG: configFile },
    /Gateway listening/,
  );
  const url = `http://127.0.0.1:${mockPort + 600}`;
  const auth = { authorization: `Bearer ${BENCH_KEY}` };
  try {
    const live = gatewayTarget(url, 'chat');
    await load(live, connections, 2);
    const alone = await load(live, connections, seconds);

    const form = new FormData();
    form.append('purpose', 'batch');
    const body = Array.from({ length: lines }, (_, i) =>
      JSON.stringify({
        custom_id: `l${i}`,
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'bench', messages: [{ role: 'user', content: 'Say hello.' }] },
      }),
    ).join('\n');
    form.append('file', new Blob([body]), 'input.jsonl');
    const file = (await (await fetch(`${url}/v1/files`, { method: 'POST', headers: auth, body: form })).json()) as { id: string };
    const started = Date.now();
    const batch = (await (
      await fetch(`${url}/v1/batches`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
      })
    ).json()) as { id: string };
    const during = await load(live, connections, seconds);
    let done: { status: string; request_counts: { completed: number; failed: number } };
    for (;;) {
      done = (await (await fetch(`${url}/v1/batches/${batch.id}`, { headers: auth })).json()) as typeof done;
      if (['completed', 'failed', 'expired', 'cancelled'].includes(done.status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const elapsed = (Date.now() - started) / 1000;
    const result = {
      lines,
      upstreamLatencyMs: latency,
      status: done.status,
      failedLines: done.request_counts.failed,
      linesPerSecond: Math.round(lines / elapsed),
      seconds: +elapsed.toFixed(1),
      liveAlone: { p50Ms: alone.p50, p99Ms: alone.p99, rps: Math.round(alone.rps) },
      liveDuringBatch: { p50Ms: during.p50, p99Ms: during.p99, rps: Math.round(during.rps), non2xx: during.non2xx },
      p99Ratio: +(during.p99 / Math.max(1, alone.p99)).toFixed(2),
    };
    console.log(JSON.stringify(result));
    appendFileSync(
      path.join(__dirname, 'results', 'batch.md'),
      `| ${new Date().toISOString().slice(0, 16)}Z | ${lines} | ${latency} ms | ${result.linesPerSecond} | ${alone.p99} ms | ${during.p99} ms | ${result.p99Ratio}× | ${process.env.BENCH_NOTE ?? ''} |\n`,
    );
  } finally {
    await gw.stop();
    await mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
