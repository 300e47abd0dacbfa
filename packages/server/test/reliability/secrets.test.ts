import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually, startFakeUpstream, type FakeBehaviour, type FakeDialectName, type FakeUpstream } from '@gateway/testkit';
import { PROVIDER_OF } from './support/gateway-over';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { recordFigure } from './support/figures';
import { errorCode, send, TEXT_FORMATS, textCall, type Answer } from './support/text-clients';

/**
 * Secrets stay secret. A gateway process at LOG_LEVEL=debug serves clients with valid, invalid and operator keys
 * while its fake upstreams fail in every way that could echo their credential (401 for a wrong key, errors whose
 * message quotes the key, an in-stream error quoting it). Neither a client key, the admin key nor an upstream
 * credential appears in any log line, and no upstream credential appears in any answer a client gets.
 */
const CLIENT_KEYS = { alpha: 'sk-alpha-secret-key-0001', beta: 'sk-beta-secret-key-0002' };
const BOGUS_KEY = 'sk-bogus-client-secret-9f8e7d6c';
const ADMIN_KEY = 'admin-secret-4b3a2918';
const UPSTREAM: Record<FakeDialectName, string> = {
  openai: 'upstream-secret-openai-7f3a9c1e',
  'openai-responses': 'upstream-secret-responses-8e2b4d6f',
  anthropic: 'upstream-secret-anthropic-2d4e6f80',
  gemini: 'upstream-secret-gemini-13579bdf',
};
const WRONG_UPSTREAM_KEY = 'upstream-secret-wrong-5d4c3b2a';
const ALL_SECRETS = [...Object.values(CLIENT_KEYS), BOGUS_KEY, ADMIN_KEY, ...Object.values(UPSTREAM), WRONG_UPSTREAM_KEY];
const UPSTREAM_SECRETS = [...Object.values(UPSTREAM), WRONG_UPSTREAM_KEY];

const DIALECTS: FakeDialectName[] = ['openai', 'anthropic', 'gemini'];
/** per dialect: the well-behaved fake, and one fake per failure (its default answer), all with that dialect's key */
const fakes = {} as Record<FakeDialectName, FakeUpstream>;
const failing = {} as Record<FakeDialectName, FakeUpstream[]>;
const quoting = (d: FakeDialectName) => `rejected credential ${UPSTREAM[d]} (Bearer ${UPSTREAM[d]})`;
const FAILURES: Array<{ name: string; behaviour: (d: FakeDialectName) => FakeBehaviour }> = [
  { name: '400 quoting the key', behaviour: (d) => ({ status: 400, errorMessage: quoting(d) }) },
  { name: '401 quoting the key', behaviour: (d) => ({ status: 401, errorMessage: quoting(d) }) },
  { name: '429 quoting the key', behaviour: (d) => ({ status: 429, errorMessage: quoting(d), headers: { 'retry-after': '1' } }) },
  { name: '500 quoting the key', behaviour: (d) => ({ status: 500, errorMessage: quoting(d) }) },
  {
    name: 'a 200 whose body quotes the key',
    behaviour: (d) => ({ raw: { status: 200, headers: { 'content-type': 'application/json' }, body: `{"error":"${quoting(d)}"` } }),
  },
  {
    name: 'an in-stream error quoting the key, after some text',
    behaviour: (d) => ({ raw: { status: 200, headers: { 'content-type': 'text/event-stream' }, body: midStreamError(d) } }),
  },
];

/** Each dialect's own stream: one text delta, then its own error event, whose message quotes the key. */
function midStreamError(d: FakeDialectName): string {
  const msg = JSON.stringify(quoting(d));
  if (d === 'openai')
    return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}\n\ndata: {"error":{"message":${msg},"type":"server_error"}}\n\n`;
  if (d === 'anthropic') {
    return (
      [
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}',
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}',
        `event: error\ndata: {"type":"error","error":{"type":"api_error","message":${msg}}}`,
      ].join('\n\n') + '\n\n'
    );
  }
  return `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]},"index":0}]}\n\ndata: {"error":{"code":500,"message":${msg},"status":"INTERNAL"}}\n\n`;
}

let gw: GatewayProcess;
let dir: string;
const answers: Answer[] = [];

beforeAll(async () => {
  for (const d of DIALECTS) {
    fakes[d] = await startFakeUpstream(d, { apiKey: UPSTREAM[d] });
    failing[d] = [];
    for (const f of FAILURES) {
      const fake = await startFakeUpstream(d, { apiKey: UPSTREAM[d] });
      fake.setDefault(f.behaviour(d));
      failing[d].push(fake);
    }
  }
  dir = mkdtempSync(path.join(os.tmpdir(), 'gw-secrets-'));
  const providers = DIALECTS.flatMap((d) => [
    // one credential through the environment (`env:NAME`), the others in the file
    {
      id: d,
      type: PROVIDER_OF[d].type,
      options: PROVIDER_OF[d].options,
      baseUrl: fakes[d].url,
      apiKey: d === 'openai' ? 'env:SECRETS_TEST_OPENAI_KEY' : UPSTREAM[d],
    },
    { id: `${d}-wrong`, type: PROVIDER_OF[d].type, options: PROVIDER_OF[d].options, baseUrl: fakes[d].url, apiKey: WRONG_UPSTREAM_KEY },
    ...failing[d].map((f, i) => ({
      id: `${d}-fail${i}`,
      type: PROVIDER_OF[d].type,
      options: PROVIDER_OF[d].options,
      baseUrl: f.url,
      apiKey: UPSTREAM[d],
    })),
  ]);
  const models = providers.map((p) => ({
    id: `m-${p.id}`,
    kind: 'text',
    provider: p.id,
    upstreamModel: PROVIDER_OF[p.id.split('-')[0] as FakeDialectName].upstreamModel,
  }));
  writeFileSync(
    path.join(dir, 'gateway.json'),
    JSON.stringify({
      providers,
      models,
      groups: [{ name: 'all', models: ['*'] }],
      keys: [
        { key: CLIENT_KEYS.alpha, account: 'alpha', group: 'all' },
        { key: CLIENT_KEYS.beta, account: 'beta', group: 'all' },
      ],
    }),
  );
  gw = await startGatewayProcess({
    GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
    DATA_DIR: dir,
    LOG_LEVEL: 'debug',
    GATEWAY_ADMIN_KEY: ADMIN_KEY,
    SECRETS_TEST_OPENAI_KEY: UPSTREAM.openai,
  });
});

afterAll(async () => {
  recordFigure('secret-leak probes', answers.length);
  await gw?.stop('SIGTERM');
  await Promise.all(DIALECTS.flatMap((d) => [fakes[d], ...failing[d]].map((f) => f.close())));
  rmSync(dir, { recursive: true, force: true });
});

async function ask(format: (typeof TEXT_FORMATS)[number], key: string, model: string, stream: boolean) {
  const a = await send(gw.url, textCall(format, key, model, stream), 8000);
  answers.push(a);
  return a;
}

describe('upstream credentials never reach a client', () => {
  it.each(DIALECTS)('%s upstream: answers, failures quoting its key, a wrong key (401)', async (d) => {
    for (const format of TEXT_FORMATS) {
      for (const stream of [false, true]) {
        expect((await ask(format, CLIENT_KEYS.alpha, `m-${d}`, stream)).status).toBe(200);
        for (let i = 0; i < FAILURES.length; i++) {
          const a = await ask(format, CLIENT_KEYS.alpha, `m-${d}-fail${i}`, stream);
          // an error either way: an HTTP error, or (a stream that had begun) the format's error event
          expect(a.status >= 400 || errorCode(format, a)?.inStream).toBeTruthy();
        }
        const wrong = await ask(format, CLIENT_KEYS.beta, `m-${d}-wrong`, stream);
        expect(wrong.status).toBe(502);
        expect(wrong.text).toContain('upstream_auth_failed');
      }
    }
    // The upstream's own message does reach the client where it helps (a 400), with the credential cut out.
    expect(answers.some((a) => a.text.includes('rejected credential [redacted]'))).toBe(true);
    for (const a of answers) {
      const seen = a.text + JSON.stringify([...a.headers]);
      for (const s of UPSTREAM_SECRETS) expect(seen).not.toContain(s);
    }
  });
});

describe('keys are never logged', () => {
  it('client keys (valid, unknown, in every header a client uses), the admin key and upstream credentials stay out of the log', async () => {
    const headerSets = (key: string): Array<Record<string, string>> => [
      { authorization: `Bearer ${key}` },
      { 'x-api-key': key },
      { 'x-goog-api-key': key },
    ];
    for (const key of [CLIENT_KEYS.alpha, BOGUS_KEY]) {
      for (const h of headerSets(key)) {
        await fetch(`${gw.url}/v1/models`, { headers: h });
        await fetch(`${gw.url}/v1/messages`, {
          method: 'POST',
          headers: { ...h, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
          body: '{"model":"m-anthropic","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}',
        });
        await fetch(`${gw.url}/v1beta/models/m-gemini:generateContent?key=${key}`, {
          method: 'POST',
          headers: { ...h, 'content-type': 'application/json' },
          body: '{"contents":[{"parts":[{"text":"hi"}]}]}',
        });
      }
    }
    for (const key of [ADMIN_KEY, BOGUS_KEY]) await fetch(`${gw.url}/admin/keys`, { headers: { authorization: `Bearer ${key}` } });
    await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    // the access line of the last request is the last to be written: once it is there, so is everything before it
    await eventually(() => /"path":"\/metrics"/.test(gw.output()), 10_000);
    const log = gw.output();
    // the log is there (one line per request), it just holds no secret
    expect(log.match(/"requestId"/g)?.length ?? 0).toBeGreaterThan(100);
    for (const s of ALL_SECRETS) expect({ secret: s, logged: log.includes(s) }).toEqual({ secret: s, logged: false });
    // no x-powered-by, no internal error text
    const res = await fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${CLIENT_KEYS.alpha}` } });
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});
