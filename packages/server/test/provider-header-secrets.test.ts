/**
 * Upstream credentials in a provider's `options.headers` (Azure's `api-key`, an `Authorization`, any header) are
 * kept like its apiKey: sealed in the database (a config file's stay in the file), shown as `(set)` through the admin
 * API, masked in audit records, and cut out of upstream error text before it reaches a tenant or a log line.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { resealSecrets } from '@gateway/store-postgres';
import { createLogger } from '@gateway/observability';
import { ALPHA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';
import { testStore } from './support/test-store';

const ADMIN = 'sk-admin-header-secrets-01';
const SECRET = 'gateway-secret-headers-7f6e5d4c';
const AZURE_KEY = 'azure-api-key-Qw3Er5Ty7Ui9';
const BEARER = 'upstream-bearer-Zx8Cv6Bn4Mm2';
const FILE_HEADER = 'file-header-token-Lk9Jh7Gf5Dd3';
const ALL = [AZURE_KEY, BEARER, FILE_HEADER];

/** An upstream that refuses every call and quotes the credentials it received, as some do in their error text. */
async function echoingUpstream() {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => {
      const quoted = ['api-key', 'authorization', 'x-upstream-token'].map((h) => `${h}=${req.headers[h] ?? ''}`).join(' ');
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Invalid credentials (${quoted})`, type: 'invalid_request_error', code: quoted } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let upstream: Awaited<ReturnType<typeof echoingUpstream>>;
let gw: TestGateway;
const lines: string[] = [];
const store = testStore();

beforeAll(async () => {
  upstream = await echoingUpstream();
  const base = testConfigFile();
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  gw = await startTestGateway({
    listen: false,
    logger: createLogger('debug', { stream: sink }),
    env: { adminKey: ADMIN, secret: SECRET, keyCacheTtlMs: 0, ...store.env },
    config: {
      ...base,
      providers: [
        ...base.providers,
        { id: 'filed', type: 'openai-compatible', baseUrl: upstream.url, options: { headers: { 'x-upstream-token': FILE_HEADER } } },
      ],
      models: [...base.models, { id: 'filed-chat', kind: 'text', provider: 'filed', upstreamModel: 'm' }],
      groups: [{ name: 'default', models: ['*'] }, ...base.groups.filter((g) => g.name !== 'default')],
    },
  });
}, 120_000);
afterAll(async () => {
  await gw?.stop();
  await upstream?.close();
  await store.drop();
});

const admin = (method: 'get' | 'put', p: string) => request(gw.app)[method](p).set('Authorization', `Bearer ${ADMIN}`);
const azure = (headers: Record<string, string>) => ({ type: 'openai-compatible', baseUrl: upstream.url, options: { headers } });
const chat = (model: string) =>
  request(gw.app)
    .post('/v1/chat/completions')
    .set('Authorization', `Bearer ${ALPHA_KEY}`)
    .send({ model, messages: [{ role: 'user', content: 'hi' }] });
const noSecretIn = (what: string, text: string) => {
  for (const s of ALL) expect({ what, secret: s, found: text.includes(s) }).toEqual({ what, secret: s, found: false });
};

describe('provider header values are secrets', () => {
  beforeAll(async () => {
    expect(
      (await admin('put', '/admin/providers/azure').send(azure({ 'api-key': AZURE_KEY, Authorization: `Bearer ${BEARER}` }))).status,
    ).toBe(200);
    expect((await admin('put', '/admin/models/azure-chat').send({ kind: 'text', provider: 'azure', upstreamModel: 'gpt-4o' })).status).toBe(
      200,
    );
  });

  it('are sealed in the database; a config file header is not copied into it', async () => {
    const rows = await gw.db.knex('config_entries').where({ kind: 'provider' }).select('id', 'body');
    const stored = JSON.stringify(rows);
    noSecretIn('config_entries', stored);
    const body = (id: string) => {
      const b = rows.find((r) => r.id === id)!.body;
      return (typeof b === 'string' ? JSON.parse(b) : b) as { options: { headers: Record<string, string> } };
    };
    expect(body('azure').options.headers).toEqual({
      'api-key': expect.stringMatching(/^enc:v1:/),
      Authorization: expect.stringMatching(/^enc:v1:/),
    });
    expect(body('filed').options.headers).toEqual({ 'x-upstream-token': '(config file)' });
  });

  it('reach the upstream, and read back as (set); a body read back and sent again keeps them', async () => {
    await chat('azure-chat');
    await chat('filed-chat');
    expect(upstream.seen.some((h) => h['api-key'] === AZURE_KEY && h.authorization === `Bearer ${BEARER}`)).toBe(true);
    expect(upstream.seen.some((h) => h['x-upstream-token'] === FILE_HEADER)).toBe(true);

    const list = await admin('get', '/admin/providers');
    expect(list.status).toBe(200);
    const shown = Object.fromEntries(list.body.data.map((p: { id: string; options?: unknown }) => [p.id, p.options]));
    expect(shown).toMatchObject({
      azure: { headers: { 'api-key': '(set)', Authorization: '(set)' } },
      filed: { headers: { 'x-upstream-token': '(set)' } },
    });
    noSecretIn('GET /admin/providers', JSON.stringify(list.body));

    const readBack = list.body.data.find((p: { id: string }) => p.id === 'azure');
    const { id: _id, source: _source, ...again } = readBack;
    const put = await admin('put', '/admin/providers/azure').send(again);
    expect(put.status).toBe(200);
    noSecretIn('PUT answer', JSON.stringify(put.body));
    upstream.seen.length = 0;
    await chat('azure-chat');
    expect(upstream.seen.at(-1)).toMatchObject({ 'api-key': AZURE_KEY, authorization: `Bearer ${BEARER}` });

    const unknown = await admin('put', '/admin/providers/azure').send(azure({ 'api-key': '(set)', 'x-new': '(set)' }));
    expect([unknown.status, unknown.body.error?.code, unknown.body.error?.param]).toEqual([400, 'invalid_header', 'options.headers.x-new']);
  });

  it('are masked in audit records', async () => {
    const rows = await admin('get', '/admin/audit?target=provider:azure');
    expect(rows.body.data.map((r: { action: string }) => r.action)).toEqual(['provider.update', 'provider.create']);
    expect(rows.body.data[1].after.options.headers).toEqual({ 'api-key': '(masked)', Authorization: '(masked)' });
    noSecretIn('GET /admin/audit', JSON.stringify(rows.body));
    noSecretIn('audit_log', JSON.stringify(await gw.db.knex('audit_log')));
  });

  it('are cut out of upstream error text before a tenant or a log line sees it', async () => {
    lines.length = 0;
    for (const model of ['azure-chat', 'filed-chat']) {
      const res = await chat(model);
      expect(res.status).toBeGreaterThanOrEqual(400);
      // the upstream's words reach the tenant, its quote of the credentials does not
      expect(res.text).toContain('[redacted]');
      noSecretIn(`answer of ${model}`, res.text);
    }
    await new Promise((r) => setImmediate(r));
    expect(lines.length).toBeGreaterThan(0);
    noSecretIn('log lines', lines.join('\n'));
  });

  it('are re-sealed by secrets:reseal when GATEWAY_SECRET rotates', async () => {
    const found = await resealSecrets(gw.db.knex, { current: 'the-next-gateway-secret-01', previous: SECRET });
    expect(found.previous).toEqual(expect.arrayContaining(["provider azure's header api-key", "provider azure's header Authorization"]));
    const again = await resealSecrets(gw.db.knex, { current: 'the-next-gateway-secret-01' });
    expect(again.current).toEqual(expect.arrayContaining(["provider azure's header api-key", "provider azure's header Authorization"]));
    expect(again.unreadable).toEqual([]);
  });
});

describe('provider header values without GATEWAY_SECRET', () => {
  it('are refused through the admin API with a clear error naming the header', async () => {
    const bareStore = testStore();
    const bare = await startTestGateway({ listen: false, env: { adminKey: ADMIN, ...bareStore.env } });
    try {
      const put = await request(bare.app)
        .put('/admin/providers/azure')
        .set('Authorization', `Bearer ${ADMIN}`)
        .send(azure({ 'api-key': AZURE_KEY }));
      expect([put.status, put.body.error?.code, put.body.error?.param]).toEqual([400, 'secret_required', 'options.headers.api-key']);
      noSecretIn('refusal', put.text);
      noSecretIn('config_entries', JSON.stringify(await bare.db.knex('config_entries')));
    } finally {
      await bare.stop();
      await bareStore.drop();
    }
  }, 120_000);
});
