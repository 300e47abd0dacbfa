import http from 'node:http';
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { Target } from './measure';
import { BENCH_KEY, ROOT, startProcess, type Proc } from './processes';

/** A port free on 127.0.0.1 a moment ago. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

/**
 * The yardstick (bench/bare-proxy.ts) in front of the upstream on `upstreamPort`, as plain JavaScript under plain node
 * (tsx's loader and its esbuild child would count in its RSS), bundled into `dir`; `nodeArgs` go before the script.
 */
export async function startBareProxyProcess(
  upstreamPort: number,
  dir: string,
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<{ proc: Proc; url: string }> {
  const script = path.join(dir, 'bare-proxy.cjs');
  buildSync({ entryPoints: [path.join(ROOT, 'bench/bare-proxy.ts')], outfile: script, platform: 'node', format: 'cjs', bundle: true });
  const port = await freePort();
  const proc = await startProcess(
    'bare',
    process.execPath,
    [...nodeArgs, script, String(port), String(upstreamPort)],
    env,
    /bare proxy on/,
  );
  return { proc, url: `http://127.0.0.1:${port}` };
}

/** The mock upstream (bench/mock-upstream.ts) on `port`: its latency, jitter and interval between chunks, in ms. */
export function startMock(port: number, latency = 0, jitter = 0, interval = 0): Promise<Proc> {
  return startProcess(
    `mock:${port}`,
    process.execPath,
    ['--import', 'tsx', 'bench/mock-upstream.ts', String(port), String(latency), String(jitter), String(interval)],
    {},
    /mock upstream on/,
  );
}

/** What a run asks the gateway: a completion, a streamed one, a stream through /v1/messages, or one embedding. */
export type BenchAsk = 'chat' | 'stream' | 'anthropic' | 'embeddings';

/** The ask of `bench:cpu` and `bench:profile`, from their flags (`--anthropic` streams too). */
export function askFromArgs(argv: readonly string[]): BenchAsk {
  if (argv.includes('--embeddings')) return 'embeddings';
  if (argv.includes('--anthropic')) return 'anthropic';
  return argv.includes('--stream') ? 'stream' : 'chat';
}

/** One ask of the gateway at `gatewayUrl`; text goes to `model`, an embedding (as the openai SDK asks it: base64) to bench-embed. */
export function gatewayTarget(gatewayUrl: string, ask: BenchAsk, { name = 'gateway', model = 'bench' } = {}): Target {
  const authorization = `Bearer ${BENCH_KEY}`;
  if (ask === 'embeddings')
    return {
      name,
      url: `${gatewayUrl}/v1/embeddings`,
      headers: { authorization },
      body: JSON.stringify({ model: 'bench-embed', input: 'Say hello.', encoding_format: 'base64' }),
    };
  const anthropic = ask === 'anthropic';
  return {
    name,
    url: `${gatewayUrl}/v1/${anthropic ? 'messages' : 'chat/completions'}`,
    headers: { authorization, ...(anthropic ? { 'anthropic-version': '2023-06-01' } : {}) },
    body: JSON.stringify({ model, stream: ask !== 'chat', max_tokens: 1024, messages: [{ role: 'user', content: 'Say hello.' }] }),
  };
}
