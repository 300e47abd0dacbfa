import request from 'supertest';
import { startFakeCohere, type FakeCohere } from '@gateway/provider-cohere/testing';
import { startFakeOpenAiModerations, type FakeOpenAiModerations } from '@gateway/provider-openai/testing';
import { startFakeJinaRerank, type FakeJinaRerank } from '@gateway/provider-openai-compatible/testing';
import { startFakeVoyage, type FakeVoyage } from '@gateway/provider-voyage/testing';
import { DEFAULT_CONFIG } from '../src/default-config';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/**
 * Rerank, moderation, and Cohere and Voyage embeddings through real provider adapters against fake upstreams: any
 * inbound dialect, any upstream that can do the work.
 */
let gw: TestGateway;
let jina: FakeJinaRerank;
let cohere: FakeCohere;
let voyage: FakeVoyage;
let moderations: FakeOpenAiModerations;

beforeAll(async () => {
  [jina, cohere, voyage, moderations] = await Promise.all([
    startFakeJinaRerank(),
    startFakeCohere(),
    startFakeVoyage(),
    startFakeOpenAiModerations(),
  ]);
  gw = await startTestGateway({
    listen: false,
    config: testConfigFile({
      providers: [
        { id: 'sim', type: 'simulator' },
        { id: 'vllm', type: 'openai-compatible', baseUrl: jina.url },
        { id: 'co', type: 'cohere', baseUrl: cohere.url, apiKey: cohere.apiKey },
        { id: 'vo', type: 'voyage', baseUrl: voyage.url, apiKey: voyage.apiKey },
        { id: 'oai', type: 'openai', baseUrl: moderations.url, apiKey: moderations.apiKey },
      ],
      models: [
        ...DEFAULT_CONFIG.models,
        { id: 'bge-reranker', kind: 'rerank', provider: 'vllm' },
        { id: 'cohere-rerank', kind: 'rerank', provider: 'co', upstreamModel: 'rerank-v3.5' },
        { id: 'voyage-rerank', kind: 'rerank', provider: 'vo', upstreamModel: 'rerank-2.5' },
        { id: 'openai-moderation', kind: 'moderation', provider: 'oai', upstreamModel: 'omni-moderation-latest' },
        { id: 'cohere-embed', kind: 'embedding', provider: 'co', upstreamModel: 'embed-v4.0' },
        { id: 'voyage-embed', kind: 'embedding', provider: 'vo', upstreamModel: 'voyage-3.5' },
        {
          id: 'failover-rerank',
          kind: 'rerank',
          deployments: [
            { provider: 'co', upstreamModel: 'rerank-v3.5', priority: 0 },
            { provider: 'vo', upstreamModel: 'rerank-2.5', priority: 1 },
          ],
        },
      ],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
  await Promise.all([jina.close(), cohere.close(), voyage.close(), moderations.close()]);
});

const beta = { Authorization: `Bearer ${BETA_KEY}` };
const DOCS = ['green grass grows', 'the blue sky above', 'blue ocean water'];
const post = (path: string, body: Record<string, unknown>) => request(gw.app).post(path).set(beta).send(body);

describe('rerank across upstreams', () => {
  it('a Cohere-shape /v2/rerank is served by a Jina-shape server (vLLM, Infinity)', async () => {
    const res = await post('/v2/rerank', { model: 'bge-reranker', query: 'blue sky', documents: DOCS, top_n: 2 });
    expect(res.status).toBe(200);
    expect(jina.bodies().at(-1)).toEqual({ model: 'bge-reranker', query: 'blue sky', documents: DOCS, top_n: 2, return_documents: false });
    expect(res.body.results.map((r: { index: number }) => r.index)).toEqual([1, 2]);
    expect(res.body.results[0]).not.toHaveProperty('document');
    expect(res.body.meta.billed_units.search_units).toBe(1);
    expect(res.body.usage.total_tokens).toBeGreaterThan(0);
  });

  it('a Jina-shape /v1/rerank with return_documents is served by Cohere, documents echoed by the gateway', async () => {
    const res = await post('/v1/rerank', {
      model: 'cohere-rerank',
      query: 'blue sky',
      documents: [{ text: DOCS[0] }, DOCS[1]],
      return_documents: true,
    });
    expect(res.status).toBe(200);
    expect(cohere.bodies('/v2/rerank').at(-1)).toEqual({ model: 'rerank-v3.5', query: 'blue sky', documents: [DOCS[0], DOCS[1]] });
    expect(res.body.results[0]).toEqual({ index: 1, relevance_score: expect.any(Number), document: { text: DOCS[1] } });
  });

  it('Voyage serves with top_k; its tokens are on the usage row and search units are counted by the gateway', async () => {
    const res = await post('/v2/rerank', { model: 'voyage-rerank', query: 'blue sky', documents: DOCS, top_n: 1 });
    expect(res.status).toBe(200);
    expect(voyage.bodies('/v1/rerank').at(-1)).toMatchObject({ model: 'rerank-2.5', top_k: 1 });
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
    expect(row).toMatchObject({ provider: 'vo', search_units: 1, status: 'ok' });
    expect(row.estimated).toBeFalsy();
  });

  it('fails over from Cohere to Voyage on a retryable upstream failure', async () => {
    cohere.api.failNext('poll', 1, { status: 503 });
    const res = await post('/v2/rerank', { model: 'failover-rerank', query: 'blue sky', documents: DOCS });
    expect(res.status).toBe(200);
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
    expect(row).toMatchObject({ provider: 'vo', attempts: 2 });
  });

  it("an upstream's refusal reaches the caller in the caller's own shape", async () => {
    jina.api.failNext('create', 1, { status: 400, body: { error: { message: 'document too long', type: 'BadRequestError' } } });
    const res = await post('/v2/rerank', { model: 'bge-reranker', query: 'q', documents: ['d'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'document too long' });
  });
});

describe('moderation through OpenAI', () => {
  it("passes strings and parts to OpenAI's /moderations and answers with its verdicts", async () => {
    const res = await post('/v1/moderations', { model: 'openai-moderation', input: ['hello', 'attack now'] });
    expect(res.status).toBe(200);
    expect(moderations.bodies().at(-1)).toEqual({ model: 'omni-moderation-latest', input: ['hello', 'attack now'] });
    expect(res.body.results.map((r: { flagged: boolean }) => r.flagged)).toEqual([false, true]);
    expect(res.body.model).toBe('openai-moderation');
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
    expect(row).toMatchObject({ provider: 'oai', estimated: true });
  });
});

describe('embeddings through Cohere and Voyage', () => {
  const decode = (b64: string) => {
    const bytes = Buffer.from(b64, 'base64');
    return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
  };
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

  it("an OpenAI request (the SDK's default base64) served by Cohere: output_dimension, input_type, billed tokens", async () => {
    const res = await post('/v1/embeddings', {
      model: 'cohere-embed',
      input: ['alpha beta', 'gamma'],
      dimensions: 256,
      encoding_format: 'base64',
    });
    expect(res.status).toBe(200);
    expect(cohere.bodies('/v2/embed').at(-1)).toEqual({
      model: 'embed-v4.0',
      input_type: 'search_document',
      texts: ['alpha beta', 'gamma'],
      embedding_types: ['float'],
      output_dimension: 256,
    });
    const v = decode(res.body.data[0].embedding);
    expect(v).toHaveLength(256);
    expect(norm(v)).toBeCloseTo(1, 5);
    expect(res.body.usage.prompt_tokens).toBe(3);
  });

  it('a Gemini batchEmbedContents served by Voyage: taskType as input_type, an odd size cut and renormalised', async () => {
    const res = await request(gw.app)
      .post('/v1beta/models/voyage-embed:batchEmbedContents')
      .set({ 'x-goog-api-key': BETA_KEY })
      .send({
        requests: ['one', 'two'].map((text) => ({
          model: 'models/voyage-embed',
          content: { parts: [{ text }] },
          taskType: 'RETRIEVAL_QUERY',
          outputDimensionality: 64,
        })),
      });
    expect(res.status).toBe(200);
    expect(voyage.bodies('/v1/embeddings').at(-1)).toEqual({ input: ['one', 'two'], model: 'voyage-3.5', input_type: 'query' });
    expect(res.body.embeddings).toHaveLength(2);
    expect(res.body.embeddings[0].values).toHaveLength(64);
    expect(norm(res.body.embeddings[0].values)).toBeCloseTo(1, 5);
  });

  it('token arrays are refused before Cohere is called, naming input', async () => {
    const before = cohere.api.requests.length;
    const res = await post('/v1/embeddings', { model: 'cohere-embed', input: [[1, 2, 3]] });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('input');
    expect(cohere.api.requests.length).toBe(before);
  });
});
