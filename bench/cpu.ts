/**
 * `npm run bench:cpu`: CPU time per proxied request, the figure that depends least on what else the machine runs.
 * Starts the mock upstream and the gateway as `npm start` runs it (embedded store, info logs, usage log on), warms
 * up, loads c=16 (BENCH_CONNECTIONS) non-streaming for BENCH_SECONDS (default 10), and prints the user + system CPU
 * of the gateway's whole process tree divided by the completed requests, with the latency percentiles and the idle RSS
 * of the tree before the load. Extra gateway settings pass through the environment (LOG_LEVEL, DATABASE_URL, ...), to measure one lever at a time.
 * `-- --stream`: streamed completions instead (the mock sends 200 chunks each); prints CPU per chunk and chunks/s.
 * `-- --anthropic`: the same streams asked through /v1/messages (Anthropic in, OpenAI-compatible upstream).
 * `-- --embeddings`: /v1/embeddings of one text as the openai SDK asks it (base64), from an `openai` upstream (1,536 dimensions in base64).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load } from './lib/measure';
import { buildGateway, GATEWAY_ARGS, startProcess, treeCpuSeconds, treeRssMb, writeMockGatewayConfig } from './lib/processes';
import { askFromArgs, gatewayTarget, startMock } from './lib/targets';

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
  const ask = askFromArgs(process.argv);
  const stream = ask === 'stream' || ask === 'anthropic';
  const CHUNKS = 200; // what bench/mock-upstream.ts streams per completion
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-cpu-'));
  const mockPort = 21000 + Math.floor(Math.random() * 500);
  const gwPort = mockPort + 600;
  const configFile = writeMockGatewayConfig(dir, mockPort);
  buildGateway();
  const mock = await startMock(mockPort);
  const gw = await startProcess(
    'gateway',
    process.execPath,
    GATEWAY_ARGS,
    { PORT: String(gwPort), HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data'), GATEWAY_CONFIG: configFile },
    /Gateway listening/,
  );
  try {
    const target = gatewayTarget(`http://127.0.0.1:${gwPort}`, ask);
    await load(target, 16, 3);
    await new Promise((r) => setTimeout(r, 3000));
    const pid = gw.child.pid!;
    const idle = treeRssMb(pid);
    const before = treeCpuSeconds(pid);
    const r = await load(target, connections, seconds);
    const us = ((treeCpuSeconds(pid) - before) / r.requests) * 1e6;
    console.log(
      JSON.stringify({
        ...(stream ? { cpuPerChunkUs: +(us / CHUNKS).toFixed(2), chunksPerSecond: Math.round(r.rps * CHUNKS) } : {}),
        cpuPerRequestUs: Math.round(us),
        rps: Math.round(r.rps),
        connections,
        p50Ms: r.p50,
        p99Ms: r.p99,
        requests: r.requests,
        errors: r.errors + r.non2xx,
        idleRssMb: Math.round(idle),
        rssAfterMb: Math.round(treeRssMb(pid)),
      }),
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
