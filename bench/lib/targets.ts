import type { Target } from './measure';
import { BENCH_KEY, startProcess, type Proc } from './processes';

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
