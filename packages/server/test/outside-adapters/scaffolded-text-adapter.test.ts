import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GatewayConfigFile } from '../../src/config';
import { startFakeProcess, type FakeProcess } from '@gateway/provider-kit/testing';
import { anthropicMessagesDriver, geminiContentDriver, openAiChatDriver, openAiResponsesDriver } from '../support/inbound-drivers';
import { buildServer, runGatewayBin, startGatewayProcess } from '../support/gateway-process';
import { usageRow } from '../support/provider-gateway';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * Issue 27's proof for text: a newcomer's path, with the real commands. `npx gateway adapter:new` scaffolds a
 * package in a temporary directory outside packages/, `npx gateway adapter:test` passes on it, and a gateway loads
 * it by a config entry naming the module (a path relative to the config file) and serves every text format through it.
 */
const UPSTREAM_KEY = 'acme-upstream-key-0123456789';

let dir: string;
let pkg: string;
let fake: FakeProcess;
let gw: TestGateway;
let configPath: string;

function configFile(): GatewayConfigFile {
  const base = testConfigFile();
  return {
    ...base,
    providers: [
      ...base.providers,
      // the contract's entry: a module instead of a built-in type, relative to the config file
      { id: 'acme', module: './acme-adapter/adapter.mjs', apiKey: UPSTREAM_KEY, options: { baseUrl: fake.url } },
    ],
    models: [...base.models, { id: 'acme-chat', kind: 'text', provider: 'acme', upstreamModel: 'acme-1' }],
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'outside-adapter-'));
  pkg = path.join(dir, 'acme-adapter');
  const created = await runGatewayBin(['adapter:new', pkg, '--kind', 'text']);
  expect(created).toMatchObject({ code: 0 });
  fake = await startFakeProcess(pkg, ['--key', UPSTREAM_KEY]);
  configPath = path.join(dir, 'gateway.json');
  writeFileSync(configPath, JSON.stringify(configFile()));
  gw = await startTestGateway({ config: configFile(), env: { configPath } });
});
afterAll(async () => {
  await gw?.stop();
  await fake?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('the scaffolded package passes the conformance kit: one line per suite, exit 0', async () => {
  const r = await runGatewayBin(['adapter:test', pkg]);
  const lines = r.out.trim().split('\n');
  expect(lines.filter((l) => l.startsWith('PASS '))).toHaveLength(6);
  expect(lines.filter((l) => l.startsWith('FAIL '))).toEqual([]);
  expect(r.code).toBe(0);
});

describe.each([openAiChatDriver, anthropicMessagesDriver, geminiContentDriver, openAiResponsesDriver])(
  '$name through the outside adapter',
  (inbound) => {
    it.each([false, true])('answers text (stream: %s)', async (stream) => {
      await fake.control('/__fake/reset');
      const text = await inbound.text(gw.url, 'acme-chat', `hello ${inbound.name}`, stream);
      expect(text).toBe(`fake-acme says: hello ${inbound.name}`);
      const log = (await fake.control('/__fake/log')) as { requests: Array<{ body: { model: string; stream: boolean } }> };
      expect(log.requests[0]!.body).toMatchObject({ model: 'acme-1', stream });
    });
  },
);

it('round-trips a tool call through the outside adapter', async () => {
  await fake.control('/__fake/reset');
  await fake.control('/__fake/next', { reply: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] } });
  await fake.control('/__fake/next', { reply: { text: 'It is sunny in Paris.' } });
  const r = await openAiChatDriver.toolRoundTrip(gw.url, 'acme-chat', 'sunny 21C', true);
  expect(r).toEqual({ call: { name: 'get_weather', args: { city: 'Paris' } }, answer: 'It is sunny in Paris.' });
  const log = (await fake.control('/__fake/log')) as { requests: unknown[] };
  expect(JSON.stringify(log.requests[1])).toContain('sunny 21C');
});

it('records usage for the outside adapter like a built-in, and an upstream echo of its key never reaches the client', async () => {
  await fake.control('/__fake/reset');
  await fake.control('/__fake/next', { reply: { text: 'counted', usage: { input: 21, output: 4 } } });
  const ok = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'acme-chat', messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(ok.status).toBe(200);
  const row = await usageRow(gw, ok.headers.get('x-request-id')!);
  expect(row).toMatchObject({ provider: 'acme', input_tokens: 21, output_tokens: 4 });

  await fake.control('/__fake/next', { status: 400, message: `key ${UPSTREAM_KEY} may not use acme-1` });
  const bad = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': BETA_KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'acme-chat', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(bad.status).toBe(400);
  const body = await bad.text();
  expect(JSON.parse(body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  expect(body).not.toContain(UPSTREAM_KEY);
});

it('loads from the esbuild bundle `npm start` runs, by GATEWAY_CONFIG', async () => {
  buildServer();
  const data = mkdtempSync(path.join(os.tmpdir(), 'outside-adapter-data-'));
  const proc = await startGatewayProcess({ GATEWAY_CONFIG: configPath, DATA_DIR: data }, { entry: 'built' });
  try {
    const text = await openAiChatDriver.text(proc.url, 'acme-chat', 'hello bundle', true);
    expect(text).toBe('fake-acme says: hello bundle');
  } finally {
    await proc.stop();
    rmSync(data, { recursive: true, force: true });
  }
});
