import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '@gateway/testkit';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';

jest.setTimeout(300_000);

const KEY = 'sk-batch-kill-key-0001';
const LINES = 2000;
const PER_ACCOUNT = 8;

/** An OpenAI-compatible chat upstream that counts the calls each batch line (named in its message) gets. */
async function countingUpstream() {
  const calls = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const text = String(JSON.parse(body).messages?.at(-1)?.content ?? '');
      calls.set(text, (calls.get(text) ?? 0) + 1);
      // a few milliseconds a call, so a kill lands in the middle of the batch
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: 'chatcmpl-x',
            object: 'chat.completion',
            created: 1,
            model: 'counted',
            choices: [{ index: 0, message: { role: 'assistant', content: `answer to ${text}` }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 },
          }),
        );
      }, 5);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const total = () => [...calls.values()].reduce((a, b) => a + b, 0);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    total,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('a gateway SIGKILLed in the middle of a 2,000-line batch (embedded store)', () => {
  let dir: string;
  let gw: GatewayProcess | undefined;
  let upstream: Awaited<ReturnType<typeof countingUpstream>>;

  beforeAll(async () => {
    upstream = await countingUpstream();
    dir = mkdtempSync(path.join(os.tmpdir(), 'gw-batch-kill-'));
    writeFileSync(
      path.join(dir, 'gateway.json'),
      JSON.stringify({
        providers: [{ id: 'up', type: 'openai-compatible', baseUrl: upstream.url, apiKey: 'sk-upstream-test' }],
        models: [{ id: 'counted-chat', kind: 'text', provider: 'up' }],
        groups: [{ name: 'default', models: ['*'] }],
        keys: [{ key: KEY, account: 'acme', group: 'default' }],
      }),
    );
  });
  afterAll(async () => {
    await gw?.stop('SIGKILL');
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({
    GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
    DATA_DIR: dir,
    BATCH_CONCURRENCY_PER_ACCOUNT: String(PER_ACCOUNT),
  });
  const call = async (method: string, p: string, body?: string | FormData, json = true) => {
    const res = await fetch(`${gw!.url}${p}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, ...(json && body ? { 'content-type': 'application/json' } : {}) },
      body,
    });
    return res;
  };

  it('answers every line once after a restart, and sends none upstream twice', async () => {
    gw = await startGatewayProcess(env());
    const lines = Array.from({ length: LINES }, (_, i) =>
      JSON.stringify({
        custom_id: `line-${i}`,
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'counted-chat', messages: [{ role: 'user', content: `line-${i}` }] },
      }),
    );
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([lines.join('\n')], { type: 'application/jsonl' }), 'input.jsonl');
    const file = (await (await call('POST', '/v1/files', form, false)).json()) as { id: string };
    const created = (await (
      await call(
        'POST',
        '/v1/batches',
        JSON.stringify({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
      )
    ).json()) as { id: string; status: string };
    expect(created.status).toBe('in_progress');

    // killed once a good share of the lines went upstream, with others in flight
    await eventually(() => expect(upstream.total()).toBeGreaterThanOrEqual(300), 240_000, 20);
    await gw.stop('SIGKILL');
    const beforeRestart = upstream.total();
    expect(beforeRestart).toBeLessThan(LINES);

    gw = await startGatewayProcess(env());
    let batch: Record<string, any> = {};
    await eventually(
      async () => {
        batch = (await (await call('GET', `/v1/batches/${created.id}`)).json()) as Record<string, any>;
        expect(batch.status).toBe('completed');
      },
      240_000,
      200,
    );
    const fileLines = async (id: string | null) =>
      id
        ? (await (await call('GET', `/v1/files/${id}/content`)).text())
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { custom_id: string; response: unknown; error: { code: string } | null })
        : [];
    const output = await fileLines(batch.output_file_id);
    const errors = await fileLines(batch.error_file_id);

    // every line answered exactly once, in one of the two files
    const ids = [...output, ...errors].map((l) => l.custom_id);
    expect(ids).toHaveLength(LINES);
    expect(new Set(ids).size).toBe(LINES);
    expect(batch.request_counts).toEqual({ total: LINES, completed: output.length, failed: errors.length });
    // the lines in flight at the kill are interrupted (at most one account's concurrency), never sent again
    expect(errors.length).toBeLessThanOrEqual(PER_ACCOUNT);
    for (const e of errors) expect(e.error?.code).toBe('interrupted');
    // no line went upstream twice; every answered line went exactly once
    for (const [text, n] of upstream.calls) expect([text, n]).toEqual([text, 1]);
    for (const l of output) expect(upstream.calls.get(l.custom_id)).toBe(1);
  });
});
