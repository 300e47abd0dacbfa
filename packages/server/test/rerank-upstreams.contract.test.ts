import request from 'supertest';
import { startFakeCohere, type FakeCohere } from '@gateway/provider-cohere/testing';
import { startFakeOpenAiModerations, type FakeOpenAiModerations } from '@gateway/provider-openai/testing';
import { startFakeJinaRerank, type FakeJinaRerank } from '@gateway/provider-openai-compatible/testing';
import { startFakeVoyage, type FakeVoyage } from '@gateway/provider-voyage/testing';
import { DEFAULT_CONFIG } from '../src/default-config';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/** Rerank and moderation through real provider adapters against fake upstreams: any inbound dialect, any upstream. */
let gw: TestGateway;
let jina: FakeJinaRerank;
let cohere: FakeCohere;
let voyage: FakeVoyage;
let moderations: FakeOpenAiModerations;

beforeAll(async () => {
  [jina, cohere, voyage, moderations] = await Promise.all([startFakeJinaRerank(), startFakeCohere(), startFakeVoyage(), startFakeOpenAiModerations()]);
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
    const res = await post('/v1/rerank', { model: 'cohere-rerank', query: 'blue sky', documents: [{ text: DOCS[0] }, DOCS[1]], return_documents: true });
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
