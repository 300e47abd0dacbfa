/**
 * GATEWAY_SECRET rotation: with the old secret in GATEWAY_SECRET_PREVIOUS everything sealed stays readable (an
 * admin-written provider key, webhook endpoint and callback secrets), `gateway secrets:reseal` seals it anew under
 * GATEWAY_SECRET, and afterwards the new secret alone serves. A value neither secret opens is a start-up warning that
 * names it and a clear 409 where it is used, never a 500; an admin re-issues the webhook secret.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { runCli } from '../src/cli';
import { createLogger } from '@gateway/observability';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

jest.setTimeout(120_000);

const ADMIN = 'sk-admin-rotation-0001';
const OLD = 'old-gateway-secret-5f4e3d2c1b';
const NEW = 'new-gateway-secret-a1b2c3d4e5';
const UPSTREAM_KEY = 'sk-admin-written-Rt8Yp3Ws';
let upstream: FakeUpstream;
let dataDir: string;

beforeAll(async () => {
  upstream = await startFakeUpstream('openai', { apiKey: UPSTREAM_KEY });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-rotation-'));
});
afterAll(async () => {
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function gateway(secret: string, previous?: string) {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
  const gw = await startTestGateway({
    listen: false,
    logger: createLogger('warn', { stream, format: 'json' }),
    env: {
      adminKey: ADMIN,
      dataDir,
      inMemoryDatabase: false,
      secret,
      previousSecret: previous,
      webhooks: {
        allowedHosts: ['hooks.example.com'],
        retry: { firstDelayMs: 1000, factor: 2, maxDelayMs: 1000, windowMs: 3_600_000 },
        timeoutMs: 1000,
        intervalMs: 60_000,
      },
    },
    config: testConfigFile(),
  });
  return { gw, warnings: () => lines.map((l) => JSON.parse(l)).filter((l) => l.level === 'warn') };
}

const admin = (gw: TestGateway, method: 'get' | 'put' | 'post', p: string) =>
  request(gw.app)[method](p).set('Authorization', `Bearer ${ADMIN}`);
const chat = (gw: TestGateway) =>
  request(gw.app)
    .post('/v1/chat/completions')
    .set('Authorization', `Bearer ${ALPHA_KEY}`)
    .send({ model: 'via-admin', messages: [{ role: 'user', content: 'hi' }] });
const callbackSecret = (gw: TestGateway) => request(gw.app).get('/v1/webhook_endpoints').set('Authorization', `Bearer ${BETA_KEY}`);

async function reseal(env: { secret: string; previousSecret?: string }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['secrets:reseal'],
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      publicBaseUrl: 'https://gateway.test',
      ...env,
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

it('reads everything sealed under either secret during the rotation, re-seals it under the new one, then needs only that', async () => {
  // before: everything sealed under OLD
  let { gw } = await gateway(OLD);
  let secretBefore: string;
  try {
    const provider = { type: 'openai-compatible', baseUrl: upstream.url, apiKey: UPSTREAM_KEY };
    expect((await admin(gw, 'put', '/admin/providers/written').send(provider)).status).toBe(200);
    const model = { kind: 'text', provider: 'written', upstreamModel: 'gpt-4o-mini' };
    expect((await admin(gw, 'put', '/admin/models/via-admin').send(model)).status).toBe(200);
    expect((await admin(gw, 'put', '/admin/groups/default').send({ models: ['*'] })).status).toBe(200);
    expect((await chat(gw)).status).toBe(200);
    expect((await admin(gw, 'post', '/admin/accounts/beta/webhook_endpoints').send({ url: 'https://hooks.example.com/b' })).status).toBe(
      200,
    );
    secretBefore = (await callbackSecret(gw)).body.callback_secret;
    expect(secretBefore).toMatch(/^whsec_/);
  } finally {
    await gw.close();
  }

  // during: NEW with OLD as the previous secret
  const during = await gateway(NEW, OLD);
  gw = during.gw;
  try {
    expect((await chat(gw)).status).toBe(200);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect((await callbackSecret(gw)).body.callback_secret).toBe(secretBefore);
    expect(during.warnings().map((w) => w.message)).toContain('sealed secrets are still under GATEWAY_SECRET_PREVIOUS');
  } finally {
    await gw.close();
  }

  // the command: three values re-sealed (provider key, endpoint secret, callback secret), nothing printed in clear
  const done = await reseal({ secret: NEW, previousSecret: OLD });
  expect(done).toMatchObject({ code: 0, err: '' });
  expect(done.out).toContain('re-sealed 3 value(s)');
  expect(done.out + done.err).not.toContain(UPSTREAM_KEY);
  expect(done.out).not.toContain(secretBefore);
  expect((await reseal({ secret: NEW, previousSecret: OLD })).out).toContain('re-sealed 0 value(s) under GATEWAY_SECRET; 3 already were');

  // after: NEW alone opens everything, and no warning
  const after = await gateway(NEW);
  gw = after.gw;
  try {
    expect((await chat(gw)).status).toBe(200);
    expect((await callbackSecret(gw)).body.callback_secret).toBe(secretBefore);
    expect(after.warnings()).toEqual([]);
  } finally {
    await gw.close();
  }
});

it('starts with a warning naming what no secret opens, answers 409 where it is used, and an admin re-issues it', async () => {
  const wrong = await gateway('a-secret-that-sealed-nothing-0');
  const gw = wrong.gw;
  try {
    const warning = wrong.warnings().find((w) => w.message.includes('cannot be opened'));
    expect(warning?.affected).toEqual(
      expect.arrayContaining([
        "provider written's apiKey",
        "account beta's callback signing secret",
        expect.stringMatching(/^webhook endpoint we_/),
      ]),
    );
    expect(JSON.stringify(wrong.warnings())).not.toContain(UPSTREAM_KEY);
    const unreadable = await callbackSecret(gw);
    expect(unreadable.status).toBe(409);
    expect(unreadable.body.error).toMatchObject({
      code: 'webhook_secret_unreadable',
      message: expect.stringContaining('GATEWAY_SECRET_PREVIOUS'),
    });
    // admin only
    expect((await request(gw.app).post('/admin/accounts/beta/webhook_secret').set('Authorization', `Bearer ${BETA_KEY}`)).status).toBe(401);
    const reissued = await admin(gw, 'post', '/admin/accounts/beta/webhook_secret');
    expect(reissued.status).toBe(200);
    expect(reissued.body).toEqual({ object: 'webhook_secret', account: 'beta', callback_secret: expect.stringMatching(/^whsec_/) });
    expect((await callbackSecret(gw)).body.callback_secret).toBe(reissued.body.callback_secret);
    const [endpoint] = (await admin(gw, 'get', '/admin/webhook_endpoints?account=beta')).body.data;
    const again = await admin(gw, 'post', `/admin/webhook_endpoints/${endpoint.id}/secret`);
    expect(again.body).toEqual({ object: 'webhook_secret', id: endpoint.id, secret: expect.stringMatching(/^whsec_/) });
    expect((await admin(gw, 'post', '/admin/webhook_endpoints/we_nope/secret')).status).toBe(404);
  } finally {
    await gw.close();
  }
});
