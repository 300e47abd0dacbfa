import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { bootstrapConfigKeys } from '../../src/bootstrap';
import { buildConfig } from '../../src/config';
import { createGateway } from '../../src/gateway';
import { eventually } from '@gateway/testkit';
import { capturedLog } from '../support/captured-log';
import { startGatewayProcess } from '../support/gateway-process';
import { closedPort, startSilentServer, startTcpProxy } from '../support/tcp-proxy';
import { ALPHA_KEY, inMemoryGatewayEnv, testConfigFile } from '../support/test-gateway';

jest.setTimeout(120000);

const chatBody = JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] });
// Half the ~10 s a request used to wait for Redis: far from that wait, and from what a loaded test machine adds.
const NO_WAIT_MS = 5000;

async function timedChat(url: string) {
  const started = Date.now();
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
    body: chatBody,
  });
  return { res, ms: Date.now() - started, body: (await res.json()) as Record<string, any> };
}

const warnLines = (output: string, text: string) =>
  output
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: string; message: string })
    .filter((l) => l.level === 'warn' && l.message.includes(text));

describe('Redis unreachable: limit checks are bounded, the policy decides, the outage shows', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-redis-'));
  const configFile = path.join(dir, 'gateway.json');
  writeFileSync(configFile, JSON.stringify(testConfigFile({ limits: { requestsPerMinutePerKey: 100, concurrentStreamsPerKey: 2 } })));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const db: Record<string, string> = process.env.TEST_DATABASE_URL
    ? { DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_SCHEMA: `redis_outage_${process.pid}` }
    : { DATA_DIR: path.join(dir, 'data') };

  it('a closed port, policy open (the default): requests pass at once, one warn, /readyz degraded', async () => {
    const gw = await startGatewayProcess({ ...db, GATEWAY_CONFIG: configFile, REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    try {
      for (let i = 0; i < 4; i++) {
        const { res, ms } = await timedChat(gw.url);
        expect(res.status).toBe(200);
        expect(ms).toBeLessThan(NO_WAIT_MS);
      }
      const ready = await fetch(`${gw.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'degraded', checks: { redis: 'unreachable (limits fail open)' } });
      expect(warnLines(gw.output(), 'redis unreachable')).toHaveLength(1);
    } finally {
      await gw.stop();
    }
  });

  it("a server that never answers, policy closed: a 503 in the caller's format at once, /readyz 503", async () => {
    const silent = await startSilentServer();
    const gw = await startGatewayProcess({
      ...db,
      GATEWAY_CONFIG: configFile,
      REDIS_URL: `redis://127.0.0.1:${silent.port}`,
      RATE_LIMIT_ON_REDIS_ERROR: 'closed',
    });
    try {
      for (let i = 0; i < 3; i++) {
        const { res, ms, body } = await timedChat(gw.url);
        expect(res.status).toBe(503);
        expect(ms).toBeLessThan(NO_WAIT_MS);
        expect(body.error).toMatchObject({ code: 'rate_limiter_unavailable' });
      }
      const ready = await fetch(`${gw.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ checks: { redis: 'unreachable (limits fail closed)' } });
      expect(warnLines(gw.output(), 'redis unreachable')).toHaveLength(1);
    } finally {
      await gw.stop();
      await silent.close();
    }
  });

  const redisUrl = process.env.TEST_REDIS_URL;
  (redisUrl ? it : it.skip)('an outage and its recovery are each logged once at warn (TEST_REDIS_URL)', async () => {
    const target = new URL(redisUrl!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const { logger, lines } = capturedLog('warn');
    const gw = await createGateway(
      await inMemoryGatewayEnv({
        dataDir: dir,
        redisUrl: `redis://127.0.0.1:${proxy.port}`,
      }),
      { config: buildConfig('t', testConfigFile({ limits: { requestsPerMinutePerKey: 100 } })), logger },
    );
    await bootstrapConfigKeys(gw.stores, gw.config);
    const chat = () => request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`).type('json').send(chatBody);
    const warned = (text: string) => lines.filter((l) => l.level === 'warn' && l.message.includes(text)).length;
    try {
      expect((await chat()).status).toBe(200);
      expect((await request(gw.app).get('/readyz')).body).toMatchObject({ status: 'ready', checks: { redis: 'ok' } });
      await proxy.cut();
      for (let i = 0; i < 3; i++) expect((await chat()).status).toBe(200);
      await eventually(async () => expect((await request(gw.app).get('/readyz')).body.status).toBe('degraded'));
      expect(warned('redis unreachable')).toBe(1);
      await proxy.restore();
      await eventually(async () => {
        expect((await chat()).status).toBe(200);
        expect(warned('redis reachable again')).toBe(1);
      }, 15000);
      expect((await request(gw.app).get('/readyz')).body).toMatchObject({ status: 'ready', checks: { redis: 'ok' } });
      expect(warned('redis unreachable')).toBe(1);
    } finally {
      await gw.close();
      await proxy.close();
    }
  });
});
