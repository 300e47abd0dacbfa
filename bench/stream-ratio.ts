/**
 * `npm run bench:stream-ratio`: the streaming target's figure in one run: chunks per second through the gateway (as
 * `npm start` runs it) and through the bare proxy (bench/bare-proxy.ts), both in front of the same mock upstream
 * (200 chunks a completion), loaded in turn at c=16 (BENCH_CONNECTIONS) for BENCH_SECONDS (default 5), BENCH_TRIALS
 * times (default 3, the sides alternating), plus the gateway's CPU per chunk. `-- --anthropic` asks the gateway
 * through /v1/messages instead (a translated stream). Prints one JSON line: the medians and the gateway's share.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, median, type Target } from './lib/measure';
import { buildGateway, GATEWAY_ARGS, startProcess, treeCpuSeconds, writeMockGatewayConfig, type Proc } from './lib/processes';
import { freePort, gatewayTarget, startBareProxyProcess, startMock } from './lib/targets';

const CHUNKS = 200; // what bench/mock-upstream.ts streams per completion

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const trials = Number(process.env.BENCH_TRIALS ?? 3);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
  const ask = process.argv.includes('--anthropic') ? 'anthropic' : 'stream';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-stream-ratio-'));
  const mockPort = await freePort();
  buildGateway();
  const procs: Proc[] = [await startMock(mockPort)];
  try {
    const bare = await startBareProxyProcess(mockPort, dir);
    procs.push(bare.proc);
    const gwPort = await freePort();
    const env = {
      PORT: String(gwPort),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      GATEWAY_CONFIG: writeMockGatewayConfig(dir, mockPort),
    };
    const gw = await startProcess('gateway', process.execPath, GATEWAY_ARGS, env, /Gateway listening/);
    procs.push(gw);
    const body = JSON.stringify({ model: 'mock', stream: true, messages: [{ role: 'user', content: 'Say hello.' }] });
    const targets: Target[] = [
      { name: 'bare', url: `${bare.url}/v1/chat/completions`, headers: {}, body },
      gatewayTarget(`http://127.0.0.1:${gwPort}`, ask),
    ];
    for (const t of targets) await load(t, connections, 2); // warm-up
    const chunks: Record<string, number[]> = { bare: [], gateway: [] };
    const cpuPerChunkUs: number[] = [];
    for (let i = 0; i < trials; i++) {
      for (const t of i % 2 ? [...targets].reverse() : targets) {
        const before = treeCpuSeconds(gw.child.pid!);
        const r = await load(t, connections, seconds);
        if (r.errors + r.non2xx) throw new Error(`${t.name}: ${r.errors + r.non2xx} failed requests`);
        chunks[t.name]!.push(r.rps * CHUNKS);
        if (t.name === 'gateway') cpuPerChunkUs.push(((treeCpuSeconds(gw.child.pid!) - before) / (r.requests * CHUNKS)) * 1e6);
      }
    }
    const bareChunks = median(chunks.bare!);
    const gatewayChunks = median(chunks.gateway!);
    console.log(
      JSON.stringify({
        ask,
        connections,
        seconds,
        trials,
        bareChunksPerSecond: Math.round(bareChunks),
        gatewayChunksPerSecond: Math.round(gatewayChunks),
        gatewayShare: +(gatewayChunks / bareChunks).toFixed(3),
        gatewayCpuPerChunkUs: +median(cpuPerChunkUs).toFixed(2),
      }),
    );
  } finally {
    for (const p of procs.reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
