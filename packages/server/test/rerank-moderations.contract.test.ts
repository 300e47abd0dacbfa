import request from 'supertest';
import { DEFAULT_CONFIG } from '../src/default-config';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  // alpha's group has no rerank or moderation model: "not in group" answers as on chat
  gw = await startTestGateway({
    listen: false,
    config: withPricing(testConfigFile({ models: DEFAULT_CONFIG.models }), { 'sim-rerank': { perThousandSearches: 2 } }),
  });
});
afterAll(async () => {
  await gw.stop();
});

const beta = { Authorization: `Bearer ${BETA_KEY}` };
const DOCS = ['Paris is the capital of France.', 'Berlin is the capital of Germany.', 'Cats sleep most of the day.'];

const rerank = (path: '/v1/rerank' | '/v2/rerank', body: Record<string, unknown>) =>
  request(gw.app)
    .post(path)
    .set(beta)
    .send({ model: 'rerank-v3.5', query: 'capital of Germany', documents: DOCS, ...body });

async function usageRow(requestId: string | undefined) {
  await gw.usage.flush();
  return gw.db.knex('usage_log').where({ request_id: requestId }).first();
}

function expectOpenAiError(res: request.Response, status: number, param?: string) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

function expectCohereError(res: request.Response, status: number, mentions?: string) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body)).toEqual(['message']);
  if (mentions) expect(res.body.message).toContain(mentions);
}

describe('POST /v2/rerank (Cohere v2)', () => {
  it('ranks with BM25: the document sharing the query words first, scores in (0, 1), no document key', async () => {
    const res = await rerank('/v2/rerank', {});
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { index: number }) => r.index)).toEqual([1, 0, 2]);
    for (const r of res.body.results) {
      expect(Object.keys(r).sort()).toEqual(['index', 'relevance_score']);
      expect(r.relevance_score).toBeGreaterThan(0);
      expect(r.relevance_score).toBeLessThan(1);
    }
    expect(res.body.meta.billed_units).toEqual({ search_units: 1 });
    expect(res.body.usage.total_tokens).toBeGreaterThan(0);
    expect(typeof res.body.id).toBe('string');
  });

  it('honours top_n and writes one usage row with search units, estimated tokens and credits', async () => {
    const res = await rerank('/v2/rerank', { top_n: 1 });
    expect(res.body.results).toHaveLength(1);
    const row = await usageRow(res.headers['x-request-id']);
    expect(row).toMatchObject({ model: 'sim-rerank', format: 'cohere-rerank', status: 'ok', search_units: 1, estimated: true });
    expect(Number(row.credits)).toBeCloseTo(0.002, 6);
  });

  it("answers errors in Cohere's shape, naming the field: schema, limits, unknown model", async () => {
    expectCohereError(await rerank('/v2/rerank', { return_documents: true }), 400, 'return_documents');
    expectCohereError(await rerank('/v2/rerank', { documents: [{ text: 'object' }] }), 400, 'documents');
    expectCohereError(await rerank('/v2/rerank', { documents: Array(1001).fill('d') }), 400, 'documents');
    expectCohereError(await rerank('/v2/rerank', { documents: [] }), 400, 'documents');
    expectCohereError(await rerank('/v2/rerank', { top_n: 0 }), 400, 'top_n');
    expectCohereError(await rerank('/v2/rerank', { query: '  ' }), 400, 'query');
    expectCohereError(await rerank('/v2/rerank', { model: 'no-such-model' }), 404);
    const noKey = await request(gw.app)
      .post('/v2/rerank')
      .send({ model: 'rerank-v3.5', query: 'q', documents: ['d'] });
    expectCohereError(noKey, 401);
  });

  it('refuses a model of another kind, and one outside the key group, as chat does', async () => {
    expect((await rerank('/v2/rerank', { model: 'sim-chat' })).status).toBe(400);
    const alpha = await request(gw.app)
      .post('/v2/rerank')
      .set({ Authorization: `Bearer ${ALPHA_KEY}` })
      .send({ model: 'sim-rerank', query: 'q', documents: ['d'] });
    expect(Object.keys(alpha.body)).toEqual(['message']);
    expect(alpha.status).toBeGreaterThanOrEqual(400);
  });
});

describe('POST /v1/rerank (Cohere and Jina fields)', () => {
  it('returns documents when asked: {text} for strings, objects as sent', async () => {
    const res = await rerank('/v1/rerank', { documents: [DOCS[0], { text: DOCS[1], id: 'b' }], return_documents: true });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toEqual({ index: 1, relevance_score: expect.any(Number), document: { text: DOCS[1], id: 'b' } });
    expect(res.body.results[1].document).toEqual({ text: DOCS[0] });
    expect(res.body.model).toBe('rerank-v3.5');
  });

  it('leaves document out (never null) by default, and ranks objects by rank_fields', async () => {
    const res = await rerank('/v1/rerank', {
      documents: [
        { title: 'Germany', body: 'Berlin' },
        { title: 'Cats', body: 'sleep' },
      ],
      rank_fields: ['title'],
    });
    expect(res.body.results[0]).toEqual({ index: 0, relevance_score: expect.any(Number) });
  });

  it("answers errors in OpenAI's shape", async () => {
    expectOpenAiError(await rerank('/v1/rerank', { documents: Array(1001).fill('d') }), 400, 'documents');
    expectOpenAiError(await rerank('/v1/rerank', { surprise: 1 }), 400);
  });
});

describe('POST /v1/moderations', () => {
  const moderate = (body: Record<string, unknown>) => request(gw.app).post('/v1/moderations').set(beta).send(body);

  it('flags the simulator words, with all 13 categories, scores and applied input types', async () => {
    const res = await moderate({ input: ['I will kill it', 'you idiot', 'thinking about suicide', 'a nice day'] });
    expect(res.status).toBe(200);
    expect(res.body.id).toMatch(/^modr-/);
    expect(res.body.model).toBe('omni-moderation-latest');
    const [kill, idiot, suicide, clean] = res.body.results;
    expect(kill.categories.violence).toBe(true);
    expect(idiot.categories.harassment).toBe(true);
    expect(suicide.categories['self-harm']).toBe(true);
    expect(clean.flagged).toBe(false);
    expect(Object.keys(kill.categories)).toHaveLength(13);
    expect(Object.keys(kill.category_scores)).toHaveLength(13);
    expect(kill.category_applied_input_types.violence).toEqual(['text']);
  });

  it('takes a string, and text and image parts as one input', async () => {
    expect((await moderate({ input: 'kill' })).body.results).toHaveLength(1);
    const parts = await moderate({
      model: 'omni-moderation-latest',
      input: [
        { type: 'text', text: 'look at this' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      ],
    });
    expect(parts.status).toBe(200);
    expect(parts.body.results).toHaveLength(1);
    expect(parts.body.results[0].category_applied_input_types.violence).toEqual(['text', 'image']);
    expect(parts.body.results[0].category_applied_input_types.harassment).toEqual(['text']);
  });

  it('writes one usage row with estimated tokens', async () => {
    const res = await moderate({ input: 'hello there friend' });
    const row = await usageRow(res.headers['x-request-id']);
    expect(row).toMatchObject({ model: 'sim-moderation', format: 'openai-moderations', status: 'ok', estimated: true });
    expect(row.input_tokens).toBeGreaterThan(0);
  });

  it("refuses bad input in OpenAI's shape", async () => {
    expectOpenAiError(await moderate({}), 400);
    expectOpenAiError(await moderate({ input: [] }), 400);
    expectOpenAiError(await moderate({ input: 'x', model: 'sim-rerank' }), 400);
    expectOpenAiError(await moderate({ input: [{ type: 'video', url: 'x' }] }), 400);
  });
});
