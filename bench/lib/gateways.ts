/** The gateways `npm run bench` starts: this one (a config over the mock upstreams) and Portkey's, installed on first use. */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_KEY, GATEWAY_ARGS, ROOT, startProcess, type Proc } from './processes';
import { freePort } from './targets';

export const PORTKEY_VERSION = '1.15.2';

export function ensurePortkey(log: (l: string) => void): string {
  const dir = path.join(ROOT, '.bench-tmp');
  const entry = path.join(dir, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  if (!existsSync(entry)) {
    log(`installing @portkey-ai/gateway@${PORTKEY_VERSION} into .bench-tmp …`);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(dir, 'package.json'))) writeFileSync(path.join(dir, 'package.json'), '{"private":true}');
    execSync(`npm install --prefix "${dir}" --no-audit --no-fund --loglevel=error @portkey-ai/gateway@${PORTKEY_VERSION}`, {
      stdio: 'inherit',
    });
  }
  return entry;
}

export function gatewayConfig(upstreams: Record<string, number>, extra: Record<string, unknown> = {}) {
  const providers = Object.entries(upstreams).map(([id, port]) => ({
    id,
    type: 'openai-compatible',
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: 'sk-upstream-bench',
  }));
  // embeddings through an `openai` upstream, which answers base64 as the openai SDK asks it
  const embed = upstreams.instant
    ? { provider: { id: 'embed', type: 'openai', baseUrl: `http://127.0.0.1:${upstreams.instant}/v1`, apiKey: 'sk-upstream-bench' } }
    : undefined;
  return {
    providers: [
      ...providers,
      ...(embed ? [embed.provider] : []),
      { id: 'sim', type: 'simulator', options: { queuedMs: 3_600_000, videoLatencyMs: 1000 } },
    ],
    models: [
      ...Object.keys(upstreams).map((id) => ({ id: `bench-${id}`, kind: 'text', provider: id, upstreamModel: 'mock' })),
      ...(embed ? [{ id: 'bench-embed', kind: 'embedding', provider: 'embed', upstreamModel: 'mock-embed' }] : []),
      { id: 'bench-video', kind: 'video', family: '2.0', tier: 'standard', provider: 'sim' },
    ],
    groups: [{ name: 'default', models: ['*'] }],
    keys: [{ key: BENCH_KEY, account: 'bench', group: 'default' }],
    ...extra,
  };
}

export async function startGateway(
  name: string,
  config: object,
  env: Record<string, string> = {},
  ready = /Gateway listening/,
): Promise<{ proc: Proc; url: string; dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-bench-'));
  writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify(config));
  const port = await freePort();
  const proc = await startProcess(
    name,
    process.execPath,
    GATEWAY_ARGS,
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
      LOG_LEVEL: 'info',
      ...env,
    },
    ready,
  );
  // info-level request logs go to a pipe we drain: the cost of logging stays in the measurement
  return { proc, url: `http://127.0.0.1:${port}`, dir };
}

export const chatBody = (model: string, stream: boolean) =>
  JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Say hello.' }] });
