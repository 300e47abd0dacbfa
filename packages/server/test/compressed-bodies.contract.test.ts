/**
 * A compressed request body is counted once inflated, while it inflates: past LIMITS.inflatedJsonBytes it is a 413 in
 * the route's own error shape, whatever the format, and it is never parsed. Any JSON body, compressed or not, holds at
 * most LIMITS.jsonValues values, counted before parsing. A multipart body is not accepted compressed.
 */
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import { LIMITS } from '@gateway/http-kit';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

const ADMIN_KEY = 'admin-key-for-compressed-bodies-0001';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { adminKey: ADMIN_KEY } });
});
afterAll(async () => {
  await gw.stop();
});

/** a chat-like body padded with spaces to `size` bytes: ~1,000 to 1 once gzipped */
const padded = (size: number, fields: object = { model: 'sim-chat' }) => {
  const head = JSON.stringify(fields).slice(0, -1);
  return Buffer.from(`${head},"pad":"${' '.repeat(size - head.length - 10)}"}`);
};
/** 30 MB once inflated (under the 32 MB limit for a body sent as is), 30 KB as sent */
const BOMB = gzipSync(padded(30 * 1024 * 1024));

const key = { Authorization: `Bearer ${ALPHA_KEY}` };
const limitSaid = expect.stringContaining(String(LIMITS.inflatedJsonBytes));
const openAi = { error: { type: 'invalid_request_error', code: 'inflated_body_too_large', message: limitSaid } };
const formats: Array<{ name: string; path: string; headers: Record<string, string>; shape: object }> = [
  { name: 'OpenAI chat', path: '/v1/chat/completions', headers: key, shape: openAi },
  { name: 'OpenAI responses', path: '/v1/responses', headers: key, shape: openAi },
  {
    name: 'Anthropic messages',
    path: '/v1/messages',
    headers: { 'x-api-key': ALPHA_KEY, 'anthropic-version': '2023-06-01' },
    shape: { type: 'error', error: { type: 'request_too_large', message: limitSaid } },
  },
  {
    name: 'Gemini generateContent',
    path: '/v1beta/models/sim-chat:generateContent',
    headers: { 'x-goog-api-key': ALPHA_KEY },
    shape: {
      error: {
        code: 413,
        status: 'INVALID_ARGUMENT',
        message: limitSaid,
        details: [expect.objectContaining({ reason: 'inflated_body_too_large' })],
      },
    },
  },
  {
    name: 'video tasks (code and message)',
    path: '/v1/contents/generations/tasks',
    headers: key,
    shape: { code: 'inflated_body_too_large', message: limitSaid },
  },
  { name: 'admin API', path: '/admin/accounts', headers: { Authorization: `Bearer ${ADMIN_KEY}` }, shape: openAi },
];

/** The refusal's code and message in OpenAI's shape. */
const refusal = (body: any): { code?: string; message?: string } => ({ code: body?.error?.code, message: body?.error?.message });

/** fetch, not supertest: superagent serializes a Buffer sent as application/json into JSON of its bytes */
async function post(path: string, headers: Record<string, string>, body: Buffer, encoding?: string) {
  const res = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json', ...(encoding ? { 'Content-Encoding': encoding } : {}) },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe(`a compressed JSON body past ${LIMITS.inflatedJsonBytes} bytes once inflated`, () => {
  it.each(formats)('$name: a 30 KB gzip body of 30 MB is a 413 in the route’s shape', async ({ path, headers, shape }) => {
    const res = await post(path, headers, BOMB, 'gzip');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject(shape);
  });

  it.each([
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('%s is counted the same way', async (encoding, compress) => {
    const res = await post('/v1/chat/completions', key, compress(padded(LIMITS.inflatedJsonBytes + 1)), encoding);
    expect({ status: res.status, ...refusal(res.body) }).toMatchObject({ status: 413, code: 'inflated_body_too_large' });
  });

  it('a compressed body within the bound is served as if sent as is', async () => {
    const chat = { model: 'sim-chat', messages: [{ role: 'user', content: `hello ${'x'.repeat(1024 * 1024)}` }] };
    const res = await post('/v1/chat/completions', key, gzipSync(JSON.stringify(chat)), 'gzip');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('chat.completion');
  });

  it('the same 30 MB sent as is stays within the route’s limit for bodies as sent (read, then refused by its schema)', async () => {
    const res = await post('/v1/chat/completions', key, padded(30 * 1024 * 1024));
    expect(res.status).toBe(400);
  });
});

describe(`a JSON body of more than ${LIMITS.jsonValues} values`, () => {
  /** `n` empty objects in an array: 2n + 2 values counted (each object, the separators, the root and its array) */
  const many = (n: number) => Buffer.from(`{"model":"sim-chat","messages":[${'{},'.repeat(n - 1)}{}]}`);

  it('is a 413 before it is parsed, sent as is or compressed', async () => {
    const plain = await post('/v1/chat/completions', key, many(LIMITS.jsonValues / 2));
    expect({ status: plain.status, ...refusal(plain.body) }).toMatchObject({ status: 413, code: 'too_many_json_values' });
    expect(plain.body.error.message).toContain(String(LIMITS.jsonValues));
    const compressed = await post('/v1/messages', formats[2]!.headers, gzipSync(many(LIMITS.jsonValues / 2)), 'gzip');
    expect(compressed.status).toBe(413);
    expect(compressed.body).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
  });

  it('exactly the limit passes the door (refused only by the schema)', async () => {
    const res = await post('/v1/chat/completions', key, many(LIMITS.jsonValues / 2 - 1));
    expect(res.status).toBe(400);
    expect(refusal(res.body).code).not.toBe('too_many_json_values');
  });
});

it('a compressed multipart body is a 400 naming the encoding, in the route’s shape', async () => {
  const res = await fetch(`${gw.url}/v1/images/edits`, {
    method: 'POST',
    headers: { ...key, 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Encoding': 'gzip' },
    body: gzipSync('--x\r\nContent-Disposition: form-data; name="model"\r\n\r\nsim-image\r\n--x--\r\n'),
  });
  expect({ status: res.status, ...refusal(await res.json()) }).toMatchObject({ status: 400, code: 'unsupported_encoding' });
});
