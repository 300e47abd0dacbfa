import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startFakeGeminiEmbed, type FakeGeminiEmbed } from '@gateway/provider-google/testing';
import { fakeOpenAiVector, startFakeOpenAiEmbeddings, type FakeOpenAiEmbeddings } from '@gateway/provider-openai/testing';
import { eventually } from '@gateway/testkit';
import { DEFAULT_CONFIG } from '../src/default-config';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/** Embeddings through the real adapters against fake upstreams: any inbound format to any upstream that embeds. */
let gw: TestGateway;
let oai: FakeOpenAiEmbeddings;
let compat: FakeOpenAiEmbeddings;
let gemini: FakeGeminiEmbed;
/** An upstream that never answers: each request resolves `closed` when the gateway drops its connection. */
let held: http.Server;
const heldCalls: Array<{ closed: Promise<void> }> = [];
let arrived: () => void = () => undefined;

beforeAll(async () => {
  [oai, compat, gemini] = await Promise.all([
    startFakeOpenAiEmbeddings({ reverseData: true }),
    startFakeOpenAiEmbeddings({ apiKey: 'local-key', noUsage: true }),
    startFakeGeminiEmbed(),
  ]);
  held = http.createServer((req, res) => {
    heldCalls.push({ closed: new Promise<void>((resolve) => res.on('close', () => resolve())) });
    arrived();
    req.resume();
  });
  await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
  gw = await startTestGateway({
    listen: false,
    config: testConfigFile({
      providers: [
        { id: 'sim', type: 'simulator' },
        { id: 'oai', type: 'openai', baseUrl: oai.url, apiKey: oai.apiKey },
        { id: 'bad', type: 'openai', baseUrl: oai.url, apiKey: 'sk-wrong-key' },
        // nothing listens on port 1: the connection is refused, a failure worth failing over
        { id: 'down', type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-down' },
        { id: 'local', type: 'openai-compatible', baseUrl: compat.url, apiKey: 'local-key' },
        { id: 'google', type: 'google', baseUrl: gemini.url, apiKey: gemini.apiKey },
        { id: 'held', type: 'openai', baseUrl: `http://127.0.0.1:${(held.address() as AddressInfo).port}/v1`, apiKey: 'held-key' },
      ],
      models: [
        ...DEFAULT_CONFIG.models,
        { id: 'oa-small', kind: 'embedding', provider: 'oai', upstreamModel: 'text-embedding-3-small' },
        { id: 'oa-ada', kind: 'embedding', provider: 'oai', upstreamModel: 'text-embedding-ada-002' },
        { id: 'bad-key', kind: 'embedding', provider: 'bad', upstreamModel: 'text-embedding-3-small' },
        { id: 'local-embed', kind: 'embedding', provider: 'local', upstreamModel: 'text-embedding-3-small' },
        { id: 'gm-embed', kind: 'embedding', provider: 'google', upstreamModel: 'gemini-embedding-001' },
        { id: 'held-embed', kind: 'embedding', provider: 'held', upstreamModel: 'text-embedding-3-small' },
        {
          id: 'failover-embed',
          kind: 'embedding',
          deployments: [
            { provider: 'down', upstreamModel: 'text-embedding-3-small', priority: 0 },
            { provider: 'local', upstreamModel: 'text-embedding-3-small', priority: 1 },
          ],
        },
      ],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
  await Promise.all([oai.close(), compat.close(), gemini.close()]);
  held.closeAllConnections();
  await new Promise<void>((r) => held.close(() => r()));
});

const openai = (body: Record<string, unknown>) =>
  request(gw.app)
    .post('/v1/embeddings')
    .set({ Authorization: `Bearer ${BETA_KEY}` })
    .send(body);
const batch = (model: string, body: unknown) =>
  request(gw.app)
    .post(`/v1beta/models/${model}:batchEmbedContents`)
    .set({ 'x-goog-api-key': BETA_KEY })
    .send(body as object);
const decode = (b64: string) => {
  const bytes = Buffer.from(b64, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
};
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const unit = (v: number[]) => {
  const n = Math.sqrt(dot(v, v));
  return v.map((x) => x / n);
};
async function row(res: request.Response) {
  await gw.usage.flush();
  return gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
}

describe('OpenAI embeddings inbound', () => {
  it('to OpenAI: base64 asked upstream, vectors put back in input order, the upstream usage kept', async () => {
    const res = await openai({ model: 'oa-small', input: ['first', 'second'], encoding_format: 'base64' });
    expect(res.status).toBe(200);
    expect(oai.bodies().at(-1)).toMatchObject({ model: 'text-embedding-3-small', input: ['first', 'second'], encoding_format: 'base64' });
    const [a, b] = res.body.data.map((d: { embedding: string }) => decode(d.embedding));
    expect(a[0]).toBeCloseTo(fakeOpenAiVector('first', 1536)[0]!, 6);
    expect(b[0]).toBeCloseTo(fakeOpenAiVector('second', 1536)[0]!, 6);
    expect(res.body.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
    expect(await row(res)).toMatchObject({ provider: 'oai', input_tokens: 4, estimated: null });
  });

  it('to an OpenAI-compatible server that counts nothing: float answered, tokens estimated and marked so', async () => {
    const res = await openai({ model: 'local-embed', input: 'twelve chars', dimensions: 8 });
    expect(res.body.data[0].embedding).toHaveLength(8);
    expect(compat.bodies().at(-1)).toMatchObject({ encoding_format: 'float', dimensions: 8 });
    expect(await row(res)).toMatchObject({ provider: 'local', input_tokens: 3, estimated: true });
  });

  it('to Gemini: dimensions as outputDimensionality, the shortened vector renormalised, tokens estimated', async () => {
    const res = await openai({ model: 'gm-embed', input: ['alpha', 'beta'], dimensions: 256, encoding_format: 'base64' });
    expect(res.status).toBe(200);
    expect(gemini.bodies().at(-1)).toMatchObject({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'alpha' }] }, outputDimensionality: 256 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'beta' }] }, outputDimensionality: 256 },
      ],
    });
    const v = decode(res.body.data[0].embedding);
    expect(v).toHaveLength(256);
    expect(dot(v, v)).toBeCloseTo(1, 5);
    expect(await row(res)).toMatchObject({ provider: 'google', estimated: true });
  });

  it('to Gemini: more than 100 inputs go in batches of 100, in order', async () => {
    const input = Array.from({ length: 150 }, (_, i) => `text ${i}`);
    const res = await openai({ model: 'gm-embed', input });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(150);
    const last = gemini.bodies().slice(-2);
    expect(last.map((b) => (b.requests as unknown[]).length)).toEqual([100, 50]);
  });

  it("refuses token arrays for Gemini, and answers the upstream's refusal in OpenAI's shape", async () => {
    const tokens = await openai({ model: 'gm-embed', input: [[1, 2, 3]] });
    expect(tokens.status).toBe(400);
    expect(tokens.body.error.param).toBe('input');
    const ada = await openai({ model: 'oa-ada', input: 'x', dimensions: 64 });
    expect(ada.status).toBe(400);
    expect(ada.body.error.message).toMatch(/dimensions/);
  });

  it('fails over from an unreachable deployment to the next', async () => {
    const res = await openai({ model: 'failover-embed', input: 'x' });
    expect(res.status).toBe(200);
    expect(await row(res)).toMatchObject({ provider: 'local', attempts: 2 });
  });

  it("answers a refused upstream key as the operator's problem, without the upstream's words", async () => {
    const res = await openai({ model: 'bad-key', input: 'x' });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('upstream_auth_failed');
    expect(JSON.stringify(res.body)).not.toContain('sk-wrong-key');
  });
});

describe('Gemini batchEmbedContents inbound', () => {
  it('to OpenAI: order kept, outputDimensionality as dimensions', async () => {
    const res = await batch('oa-small', {
      requests: ['one', 'two', 'three'].map((text) => ({
        model: 'models/oa-small',
        content: { parts: [{ text }] },
        outputDimensionality: 32,
      })),
    });
    expect(res.status).toBe(200);
    expect(oai.bodies().at(-1)).toMatchObject({ input: ['one', 'two', 'three'], dimensions: 32 });
    const got = res.body.embeddings.map((e: { values: number[] }) => e.values);
    ['one', 'two', 'three'].forEach((t, i) => {
      const want = unit(fakeOpenAiVector(t, 1536).slice(0, 32));
      got[i].forEach((x: number, j: number) => expect(x).toBeCloseTo(want[j]!, 6));
    });
  });

  it("to OpenAI: the upstream's refusal in Google's shape", async () => {
    const res = await batch('oa-ada', { requests: [{ content: { parts: [{ text: 'x' }] }, outputDimensionality: 8 }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
  });

  it('to Gemini itself: taskType and title passed on', async () => {
    const res = await batch('gm-embed', {
      requests: [{ content: { parts: [{ text: 'doc' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'A title' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.embeddings[0].values).toHaveLength(3072);
    expect(gemini.bodies().at(-1)).toMatchObject({ requests: [{ taskType: 'RETRIEVAL_DOCUMENT', title: 'A title' }] });
  });
});

describe('a caller that leaves', () => {
  it('closes the upstream call and is recorded as 499', async () => {
    const upstreamReached = new Promise<void>((r) => (arrived = r));
    const server = await gw.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
    const req = http.request(url, { method: 'POST', headers: { authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ model: 'held-embed', input: 'x' }));
    await upstreamReached;
    req.destroy();
    await heldCalls[0]!.closed;
    await eventually(async () => {
      await gw.usage.flush();
      const row = await gw.db.knex('usage_log').where({ model: 'held-embed' }).first();
      expect(row).toMatchObject({ http_status: 499 });
    });
  });
});
