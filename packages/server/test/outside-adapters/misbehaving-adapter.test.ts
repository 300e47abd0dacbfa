import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usageRow } from '../support/provider-gateway';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * An outside adapter that throws, hangs or answers in the wrong shape is a failing upstream, never a crash or a leak:
 * each becomes an error of the closed table in the caller's format, failover moves on to the next deployment, and
 * the gateway keeps serving.
 */
const KEY = 'sk-misbehaving-adapter-key-0123456789';
const ADAPTER = `
const never = () => new Promise(() => {});
export default {
  contractVersion: '1.0.0',
  optionsSchema: { type: 'object' },
  create(entry) {
    const key = entry.apiKey;
    return {
      text: {
        generate(req) {
          if (req.model === 'throws') throw new TypeError('adapter bug holding ' + key);
          if (req.model === 'hangs') return never();
          return Promise.resolve({ content: 'not a list', usage: {} });
        },
        async *stream(req) {
          if (req.model === 'throws') throw new Error('stream bug holding ' + key);
          yield { type: 'text-delta', delta: 'partial ' };
          if (req.model === 'hangs') await never();
          yield { type: 'bogus', key };
        },
      },
      close() {},
      drain() {},
    };
  },
};`;

let dir: string;
let gw: TestGateway;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'misbehaving-adapter-'));
  writeFileSync(path.join(dir, 'adapter.mjs'), ADAPTER);
  const base = testConfigFile();
  const bad = (m: string) => ({ id: `acme-${m}`, kind: 'text' as const, provider: 'acme', upstreamModel: m });
  gw = await startTestGateway({
    config: {
      ...base,
      providers: [
        ...base.providers,
        { id: 'acme', module: path.join(dir, 'adapter.mjs'), apiKey: KEY, timeouts: { firstByteMs: 800, idleMs: 800 } },
      ],
      models: [
        ...base.models,
        bad('throws'),
        bad('hangs'),
        bad('malformed'),
        {
          id: 'acme-then-sim',
          kind: 'text',
          deployments: [
            { provider: 'acme', upstreamModel: 'throws', priority: 0 },
            { provider: 'sim', upstreamModel: 'sim-chat', priority: 1 },
          ],
        },
      ],
    },
  });
});
afterAll(async () => {
  await gw?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const chat = (model: string, stream = false) =>
  fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
  });

it.each([
  ['throws', 503, 'adapter_failed'],
  ['hangs', 504, 'upstream_timeout'],
  ['malformed', 502, 'upstream_malformed_response'],
])('an adapter that %s answers %i in the caller’s format, without its key', async (mode, status, code) => {
  for (const stream of [false, true]) {
    const res = await chat(`acme-${mode}`, stream);
    const body = await res.text();
    if (mode === 'throws' || !stream) {
      // nothing was streamed yet: a plain HTTP error
      expect(res.status).toBe(status);
      expect(JSON.parse(body)).toMatchObject({ error: { code } });
    } else {
      // a failure after the first part: the stream carries the error and ends
      expect(res.status).toBe(200);
      expect(body).toContain('partial ');
      expect(body).toContain(code);
    }
    expect(body).not.toContain(KEY);
    expect(body).not.toMatch(/TypeError|at .*\.mjs/);
  }
});

it('fails over from a throwing outside adapter to the next deployment, and the gateway keeps serving', async () => {
  const res = await chat('acme-then-sim');
  expect(res.status).toBe(200);
  expect(await usageRow(gw, res.headers.get('x-request-id')!)).toMatchObject({ provider: 'sim', attempts: 2 });
  const ok = await chat('sim-chat');
  expect(ok.status).toBe(200);
});
