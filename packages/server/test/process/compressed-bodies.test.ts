/**
 * A small compressed body costs little, against a real gateway process: eight 30 KB gzip bodies that would inflate
 * to 30 MB each (ten million JSON objects) are each refused with a 413 in their route's shape while `/healthz` keeps
 * answering promptly and the process stays small. The Responses WebSocket bounds what a connection holds in bytes,
 * and how many connections one key holds open.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import WebSocket from 'ws';
import { connectResponsesSocket } from '../support/responses-socket';
import { DEFAULT_CONFIG } from '../../src/default-config';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { ALPHA_KEY, BETA_KEY, testConfigFile } from '../support/test-gateway';

const SOCKETS_PER_KEY = 2;
let gw: GatewayProcess;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gw-bombs-'));
  const base = testConfigFile();
  const config = testConfigFile({
    // a response slow enough (2 s a part) that messages sent behind it wait on the connection
    providers: [...base.providers, { id: 'slow', type: 'simulator', options: { chunkDelayMs: 2000 } }],
    models: [...DEFAULT_CONFIG.models, { id: 'sim-chat-slow', kind: 'text', provider: 'slow' }],
  });
  writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify(config));
  gw = await startGatewayProcess({
    DATA_DIR: dir,
    GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
    RESPONSES_WS_MAX_PER_KEY: String(SOCKETS_PER_KEY),
  });
}, 240_000);
afterAll(async () => {
  await gw?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** kB of /proc/<pid>/status's field (VmHWM: the peak resident set) */
const procStatusKb = (field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${gw.proc.pid}/status`, 'utf8'))?.[1]);

describe('eight gzip bombs at once', () => {
  // the kind of body: `{},` ten million times compresses a thousand to one
  const bomb = gzipSync(`{"model":"sim-chat","messages":[${'{},'.repeat(10_000_000)}{}]}`);
  const key = { Authorization: `Bearer ${ALPHA_KEY}` };
  const routes: Array<{ path: string; headers: Record<string, string>; code(body: any): string | undefined }> = [
    { path: '/v1/chat/completions', headers: key, code: (b: any) => b.error?.code },
    { path: '/v1/responses', headers: key, code: (b: any) => b.error?.code },
    {
      path: '/v1/messages',
      headers: { 'x-api-key': ALPHA_KEY, 'anthropic-version': '2023-06-01' },
      code: (b: any) => (b.type === 'error' && b.error?.type === 'request_too_large' ? 'inflated_body_too_large' : undefined),
    },
    {
      path: '/v1beta/models/sim-chat:generateContent',
      headers: { 'x-goog-api-key': ALPHA_KEY },
      code: (b: any) => (b.error?.code === 413 ? b.error.details?.[0]?.reason : undefined),
    },
  ];

  it('each is a 413 in its route’s shape; /healthz answers within 200 ms (90th percentile, none over 1 s); the process stays under 500 MB', async () => {
    expect(bomb.length).toBeLessThan(40 * 1024);
    const health = async () => {
      const t = performance.now();
      expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
      return performance.now() - t;
    };
    await health(); // a first connection is no measure
    let inFlight = true;
    const latencies: number[] = [];
    const probe = (async () => {
      while (inFlight) latencies.push(await health());
    })();
    const answers = await Promise.all(
      [...routes, ...routes].map(async (r) => {
        const res = await fetch(`${gw.url}${r.path}`, {
          method: 'POST',
          headers: { ...r.headers, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
          body: bomb,
        });
        return { path: r.path, status: res.status, code: r.code(await res.json()) };
      }),
    );
    inFlight = false;
    await probe;
    expect(answers).toEqual([...routes, ...routes].map((r) => ({ path: r.path, status: 413, code: 'inflated_body_too_large' })));
    // The event loop stays free: nine probes in ten answer within 200 ms, and none waits a second (the unbounded
    // inflate froze it for seconds). A single probe can lose the CPU to the machine's other work, hence the percentile.
    expect(latencies.length).toBeGreaterThan(0);
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length * 0.9)]).toBeLessThan(200);
    expect(sorted[sorted.length - 1]).toBeLessThan(1000);
    expect(procStatusKb('VmHWM') / 1024).toBeLessThan(500);
  }, 120_000);
});

describe('the Responses WebSocket', () => {
  const wsUrl = () => `${gw.url.replace(/^http/, 'ws')}/v1/responses`;

  /** an open connection whose frames are read in order */
  const connect = (key = ALPHA_KEY) => connectResponsesSocket(wsUrl(), { Authorization: `Bearer ${key}` });

  /** the answer to an upgrade: opened, or the HTTP status and body it was refused with */
  const upgrade = (key: string) =>
    new Promise<{ status: number; body?: any; ws?: WebSocket }>((resolve, reject) => {
      const ws = new WebSocket(wsUrl(), { headers: { Authorization: `Bearer ${key}` } });
      ws.on('open', () => resolve({ status: 101, ws }));
      ws.on('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      ws.on('error', (e) => (ws.readyState === ws.CLOSED ? undefined : reject(e)));
    });

  it(`a key holds at most RESPONSES_WS_MAX_PER_KEY (${SOCKETS_PER_KEY}) connections; beyond, the upgrade is a 429 in OpenAI's shape`, async () => {
    const held = await Promise.all(Array.from({ length: SOCKETS_PER_KEY }, () => connect()));
    const refused = await upgrade(ALPHA_KEY);
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'too_many_connections', type: expect.any(String) } } });
    expect(refused.body.error.message).toContain(String(SOCKETS_PER_KEY));
    // another key is not affected
    const other = await connect(BETA_KEY);
    await other.close();
    // a closed connection frees its place (the server sees the close after the client does)
    await held[0]!.close();
    let again = await upgrade(ALPHA_KEY);
    for (let tries = 0; again.status === 429 && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      again = await upgrade(ALPHA_KEY);
    }
    expect(again.status).toBe(101);
    again.ws!.close();
    await held[1]!.close();
  }, 60_000);

  it('messages waiting on a connection hold at most 32 MB: one more is refused with an error event, and the connection goes on', async () => {
    const c = await connect(BETA_KEY); // its group has the slow model
    try {
      const big = (n: number) => JSON.stringify({ type: 'response.create', model: 'sim-chat', input: 'hi', pad: ' '.repeat(n) });
      c.ws.send(JSON.stringify({ type: 'response.create', model: 'sim-chat-slow', input: 'take your time' }));
      c.ws.send(big(20 * 1024 * 1024));
      c.ws.send(big(20 * 1024 * 1024));
      // three answers: the slow response, and one each for the two large messages (an error event when the bound
      // refuses it; the HTTP route's own answer once it runs)
      const errors: any[] = [];
      for (let answers = 0; answers < 3;) {
        const f = await c.next();
        if (f.type === 'error') errors.push(f);
        if (f.type === 'error' || f.type === 'response.completed') answers++;
      }
      expect(errors.map((e) => e.error?.code)).toContain('too_many_pending_bytes');
      const refusal = errors.find((e) => e.error?.code === 'too_many_pending_bytes');
      expect(refusal).toMatchObject({ status: 429, error: { type: expect.any(String), message: expect.stringContaining('bytes') } });
      // still served
      c.ws.send(JSON.stringify({ type: 'response.create', model: 'sim-chat', input: 'again' }));
      for (;;) {
        const f = await c.next();
        if (f.type === 'response.completed') break;
        expect(f.type).not.toBe('error');
      }
    } finally {
      await c.close();
    }
  }, 120_000);
});
