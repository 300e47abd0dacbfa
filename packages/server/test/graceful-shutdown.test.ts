import http from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '@gateway/store-postgres';
import { ALPHA_KEY, startTestGateway, testConfigFile, withPricing } from './support/test-gateway';

describe('graceful shutdown', () => {
  it('finishes an in-flight stream, then stops; new connections are refused', async () => {
    const gw = await startTestGateway({
      config: testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { chunkDelayMs: 60 } }] }),
      env: { shutdownGraceMs: 10000 },
    });
    const body = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        `${gw.url}/v1/chat/completions`,
        { method: 'POST', headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          let closing: Promise<void> | undefined;
          res.on('data', (d) => {
            text += d;
            closing ??= gw.stop(); // SIGTERM-equivalent while the stream is still going
          });
          res.on('end', () => void closing!.then(() => resolve(text), reject)); // a failure goes to reject
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          model: 'sim-chat',
          stream: true,
          messages: [{ role: 'user', content: 'a long enough prompt to stream in several chunks' }],
        }),
      );
    });
    expect(body).toContain('"finish_reason":"stop"');
    expect(body.trim().endsWith('data: [DONE]')).toBe(true);
    await expect(fetch(`${gw.url}/healthz`)).rejects.toThrow();
  });
});

/** Starts a stream, stops the gateway at its first byte, and returns everything the client received. */
async function streamCutByShutdown(
  route: string,
  headers: Record<string, string>,
  body: object,
  opts: { dataDir?: string; priced?: boolean } = {},
) {
  const base = testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { chunkDelayMs: 400 } }] });
  const gw = await startTestGateway({
    config: opts.priced ? withPricing(base, { 'sim-chat': { inputPerMillionTokens: 1000, outputPerMillionTokens: 2000 } }) : base,
    // the grace period has run out as soon as the stop begins
    env: { shutdownGraceMs: 0, ...(opts.dataDir ? { dataDir: opts.dataDir, inMemoryDatabase: false } : {}) },
  });
  return new Promise<string>((resolve, reject) => {
    const req = http.request(
      `${gw.url}${route}`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        let closing: Promise<void> | undefined;
        res.on('data', (d) => {
          text += d;
          closing ??= gw.stop();
        });
        res.on('end', () => void closing!.then(() => resolve(text), reject)); // a failure goes to reject
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const LONG_PROMPT = 'a long enough prompt to stream in several chunks, and then a few more words to be sure';

describe('shutdown past the grace period', () => {
  it('ends an OpenAI chat stream with an OpenAI error event', async () => {
    const text = await streamCutByShutdown(
      '/v1/chat/completions',
      { authorization: `Bearer ${ALPHA_KEY}` },
      { model: 'sim-chat', stream: true, messages: [{ role: 'user', content: LONG_PROMPT }] },
    );
    expect(text).toContain('"code":"server_shutting_down"');
    expect(text).not.toContain('"finish_reason":"stop"');
  });

  it('ends an Anthropic messages stream with an Anthropic error event', async () => {
    const text = await streamCutByShutdown(
      '/v1/messages',
      { 'x-api-key': ALPHA_KEY, 'anthropic-version': '2023-06-01' },
      { model: 'sim-chat', stream: true, max_tokens: 200, messages: [{ role: 'user', content: LONG_PROMPT }] },
    );
    expect(text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"[a-z_]+"/);
    expect(text).toContain('shutting down');
    expect(text).not.toContain('message_stop');
  });

  it('still writes the usage row of a priced stream it cut, charged for what was delivered', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-cut-'));
    try {
      const text = await streamCutByShutdown(
        '/v1/chat/completions',
        { authorization: `Bearer ${ALPHA_KEY}` },
        { model: 'sim-chat', stream: true, messages: [{ role: 'user', content: LONG_PROMPT }] },
        { dataDir, priced: true },
      );
      expect(text).toContain('"code":"server_shutting_down"');
      const db = await openDatabase({ dataDir });
      try {
        const rows = await db.knex('usage_log').where({ format: 'openai-chat', model: 'sim-chat' }).select();
        expect(rows).toHaveLength(1);
        // recorded as cut by our own shutdown, neither an upstream failure nor a client that left
        expect(rows[0]).toMatchObject({ status: 'shutdown', http_status: 503, error_code: 'server_shutting_down' });
        expect(Number(rows[0].input_tokens)).toBeGreaterThan(0);
        expect(Number(rows[0].credits)).toBeGreaterThan(0);
        const quota = await db.knex('account_quotas').where({ account_id: 'alpha' }).first();
        expect(Number(quota.credits_used)).toBeCloseTo(Number(rows[0].credits), 6);
        // written before the gateway stopped: nothing left waiting in the spool
        expect(readdirSync(path.join(dataDir, 'usage-spool'))).toEqual([]);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000); // PGlite on disk, opened twice: seconds each on a loaded machine
});
