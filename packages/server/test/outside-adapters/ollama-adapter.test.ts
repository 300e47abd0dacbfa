import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdapterCommand } from '@gateway/cli';
import { startFakeProcess, type FakeProcess } from '@gateway/provider-kit/testing';
import { anthropicMessagesDriver, geminiContentDriver, openAiChatDriver, openAiResponsesDriver } from '../support/inbound-drivers';
import { startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * Issue 27's second proof: an adapter written by hand for a dialect none of the built-ins speaks (Ollama's native
 * /api/chat, NDJSON streaming; ./ollama/adapter.mjs), copied to a temporary directory outside packages/, passes the
 * kit against its fake and serves every text format, streaming included, loaded by config.
 */
const KEY = 'ollama-proxy-key-0123456789';
let dir: string;
let fake: FakeProcess;
let gw: TestGateway;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'outside-ollama-'));
  const pkg = path.join(dir, 'ollama');
  mkdirSync(pkg);
  for (const f of ['adapter.mjs', 'fake-upstream.mjs']) cpSync(path.join(__dirname, 'ollama', f), path.join(pkg, f));
  cpSync(path.join(__dirname, 'ollama', 'package.template.json'), path.join(pkg, 'package.json'));
  fake = await startFakeProcess(pkg, ['--key', KEY]);
  const base = testConfigFile();
  gw = await startTestGateway({
    config: {
      ...base,
      providers: [...base.providers, { id: 'ollama', module: path.join(pkg, 'adapter.mjs'), apiKey: KEY, options: { baseUrl: fake.url } }],
      models: [...base.models, { id: 'llama-local', kind: 'text', provider: 'ollama', upstreamModel: 'llama3.2' }],
    },
  });
});
afterAll(async () => {
  await gw?.stop();
  await fake?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('passes the conformance kit', async () => {
  const lines: string[] = [];
  const code = await runAdapterCommand('adapter:test', [path.join(dir, 'ollama')], {
    out: (l) => lines.push(l),
    err: (l) => lines.push(l),
  });
  expect(lines.filter((l) => l.startsWith('FAIL '))).toEqual([]);
  expect(lines.filter((l) => l.startsWith('PASS '))).toHaveLength(6);
  expect(code).toBe(0);
});

describe.each([openAiChatDriver, anthropicMessagesDriver, geminiContentDriver, openAiResponsesDriver])(
  '$name through Ollama',
  (inbound) => {
    it.each([false, true])('answers text (stream: %s)', async (stream) => {
      await fake.control('/__fake/reset');
      expect(await inbound.text(gw.url, 'llama-local', `hello ${inbound.name}`, stream)).toBe(`fake-ollama says: hello ${inbound.name}`);
      const log = (await fake.control('/__fake/log')) as { requests: Array<{ path: string; body: { model: string; stream: boolean } }> };
      expect(log.requests[0]).toMatchObject({ path: '/api/chat', body: { model: 'llama3.2', stream } });
    });

    it('round-trips a tool call (streaming)', async () => {
      await fake.control('/__fake/reset');
      await fake.control('/__fake/next', { reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
      await fake.control('/__fake/next', { reply: { text: 'It is sunny in Paris.' } });
      const r = await inbound.toolRoundTrip(gw.url, 'llama-local', 'sunny 21C', true);
      expect(r).toEqual({ call: { name: 'get_weather', args: { city: 'Paris' } }, answer: 'It is sunny in Paris.' });
      const log = (await fake.control('/__fake/log')) as {
        requests: Array<{ body: { messages: Array<{ role: string; content: string }> } }>;
      };
      // Gemini's function response is an object: its JSON is what reaches the tool message
      expect(log.requests[1]!.body.messages).toContainEqual(
        expect.objectContaining({ role: 'tool', content: expect.stringContaining('sunny 21C') }),
      );
    });
  },
);
