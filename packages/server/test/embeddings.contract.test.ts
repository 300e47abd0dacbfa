import request from 'supertest';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false, config: withPricing(testConfigFile(), { 'sim-embed': { inputPerMillionTokens: 100 } }) });
});
afterAll(async () => {
  await gw.stop();
});

const auth = { Authorization: `Bearer ${BETA_KEY}` };
const embed = (body: Record<string, unknown>, headers: Record<string, string> = auth) =>
  request(gw.app).post('/v1/embeddings').set(headers).send(body);
const gemini = (path: string, body: unknown, version = 'v1beta') =>
  request(gw.app)
    .post(`/${version}/models/${path}`)
    .set({ 'x-goog-api-key': BETA_KEY })
    .send(body as object);

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
/** base64 of little-endian float32, as the openai SDK decodes it */
const decode = (b64: string) => {
  const bytes = Buffer.from(b64, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
};

function expectOpenAiError(res: request.Response, status: number, param?: string) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

describe('POST /v1/embeddings', () => {
  it('answers one float vector per input, in order, with usage', async () => {
    const res = await embed({ model: 'text-embedding-3-small', input: ['a cat on a mat', 'stock prices fell'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', model: 'text-embedding-3-small' });
    expect(res.body.data.map((d: { index: number; object: string }) => [d.index, d.object])).toEqual([
      [0, 'embedding'],
      [1, 'embedding'],
    ]);
    expect(res.body.data[0].embedding).toHaveLength(1536);
    expect(res.body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(res.body.usage.total_tokens).toBe(res.body.usage.prompt_tokens);
  });

  it('answers base64 when asked: little-endian float32 of the same vector', async () => {
    const float = await embed({ model: 'sim-embed', input: 'the same text' });
    const b64 = await embed({ model: 'sim-embed', input: 'the same text', encoding_format: 'base64' });
    expect(typeof b64.body.data[0].embedding).toBe('string');
    const decoded = decode(b64.body.data[0].embedding);
    expect(decoded).toHaveLength(1536);
    decoded.forEach((x, i) => expect(x).toBeCloseTo(float.body.data[0].embedding[i], 6));
  });

  it('takes one token array and token arrays', async () => {
    const one = await embed({ model: 'sim-embed', input: [1, 2, 3] });
    expect(one.body.data).toHaveLength(1);
    expect(one.body.usage.prompt_tokens).toBe(3);
    const many = await embed({ model: 'sim-embed', input: [[1, 2], [3]] });
    expect(many.body.data).toHaveLength(2);
  });

  it('shortens to dimensions, renormalised', async () => {
    const res = await embed({ model: 'sim-embed', input: 'short vector', dimensions: 64 });
    const v = res.body.data[0].embedding as number[];
    expect(v).toHaveLength(64);
    expect(dot(v, v)).toBeCloseTo(1, 6);
  });

  it('refuses what OpenAI refuses with a 400 naming the field, before any upstream call', async () => {
    expectOpenAiError(await embed({ model: 'sim-embed', input: '' }), 400, 'input');
    expectOpenAiError(await embed({ model: 'sim-embed', input: ['ok', ''] }), 400, 'input');
    expectOpenAiError(await embed({ model: 'sim-embed', input: [] }), 400, 'input');
    expectOpenAiError(await embed({ model: 'sim-embed', input: Array.from({ length: 2049 }, () => 'x') }), 400, 'input');
    expectOpenAiError(await embed({ model: 'sim-embed', input: 'x'.repeat(40_000) }), 400, 'input');
    expectOpenAiError(await embed({ model: 'sim-embed', input: 'x', dimensions: 0 }), 400);
    expectOpenAiError(await embed({ model: 'sim-embed', input: 'x', encoding_format: 'int8' }), 400);
    expectOpenAiError(await embed({ model: 'sim-embed', input: 'x', extra: true }), 400);
    expectOpenAiError(await embed({ model: 'sim-embed', input: [1.5] }), 400);
    expectOpenAiError(await embed({ input: 'x' }), 400);
  });

  it('admits the vendor maximum: 2,048 token arrays, 300,000 tokens in all', async () => {
    const input = Array.from({ length: 2048 }, (_, i) => Array.from({ length: 146 }, (_, j) => (i + j) % 1000));
    const res = await embed({ model: 'sim-embed', input });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2048);
    expect(res.body.data[2047].index).toBe(2047);
  });

  it('answers an unknown model, a chat model and a model outside the key group as chat does', async () => {
    expectOpenAiError(await embed({ model: 'no-such-model', input: 'x' }), 404, 'model');
    expectOpenAiError(await embed({ model: 'sim-chat', input: 'x' }), 400, 'model');
    const outside = await embed({ model: 'sim-embed', input: 'x' }, { Authorization: `Bearer ${ALPHA_KEY}` });
    expect(outside.body.error.code).toBe('model_not_in_group');
  });

  it('writes one usage row with its tokens and credits', async () => {
    const res = await embed({ model: 'sim-embed', input: 'twelve chars' });
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
    expect(row).toMatchObject({ model: 'sim-embed', format: 'openai-embeddings', status: 'ok', input_tokens: 3, provider: 'sim' });
    expect(Number(row.credits)).toBeCloseTo(0.0003, 9);
    const listed = await request(gw.app).get(`/v1/usage?request_id=${res.headers['x-request-id']}`).set(auth);
    expect(listed.body.data[0]).toMatchObject({ model: 'sim-embed', input_tokens: 3, estimated: false, characters: null });
  });
});

describe('Gemini embedContent and batchEmbedContents', () => {
  it('embedContent answers one vector, shortened by outputDimensionality and renormalised', async () => {
    const res = await gemini('gemini-embedding-001:embedContent', {
      content: { parts: [{ text: 'hello world' }] },
      taskType: 'RETRIEVAL_QUERY',
      outputDimensionality: 768,
    });
    expect(res.status).toBe(200);
    const v = res.body.embedding.values as number[];
    expect(v).toHaveLength(768);
    expect(dot(v, v)).toBeCloseTo(1, 6);
  });

  it('batchEmbedContents answers in request order, under /v1 as well', async () => {
    const texts = ['the cat sat on the mat', 'a cat sitting on a mat', 'interest rates rose'];
    const res = await gemini(
      'gemini-embedding-001:batchEmbedContents',
      { requests: texts.map((text) => ({ model: 'models/gemini-embedding-001', content: { role: 'user', parts: [{ text }] } })) },
      'v1',
    );
    expect(res.status).toBe(200);
    const [cat, kitten, rates] = res.body.embeddings.map((e: { values: number[] }) => e.values);
    expect(dot(cat, kitten)).toBeGreaterThan(dot(cat, rates) + 0.3);
  });

  it("answers errors in Google's shape", async () => {
    const empty = await gemini('gemini-embedding-001:batchEmbedContents', { requests: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    const unknown = await gemini('nope:embedContent', { content: { parts: [{ text: 'x' }] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.status).toBe('NOT_FOUND');
    const image = await gemini('sim-embed:embedContent', { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } });
    expect(image.status).toBe(400);
    expect(image.body.error.message).toMatch(/text part/);
  });

  it('lists embedding models with embedContent and batchEmbedContents', async () => {
    const res = await request(gw.app).get('/v1beta/models/sim-embed').set({ 'x-goog-api-key': BETA_KEY });
    expect(res.body.supportedGenerationMethods).toEqual(['embedContent', 'batchEmbedContents']);
  });
});

describe('embeddings and credit budgets', () => {
  const ADMIN = 'sk-admin-embed-quota-01';
  let priced: TestGateway;
  beforeAll(async () => {
    priced = await startTestGateway({
      listen: false,
      env: { adminKey: ADMIN },
      config: withPricing(testConfigFile(), { 'sim-embed': { inputPerMillionTokens: 1_000_000 } }),
    });
  });
  afterAll(() => priced.stop());

  it('charges each call its tokens and refuses once the account quota is spent, in OpenAI and Google shapes', async () => {
    const admin = request(priced.app).put('/admin/accounts/beta/quota').set('Authorization', `Bearer ${ADMIN}`);
    expect((await admin.send({ credit_limit: 5 })).status).toBe(200);
    const call = () => request(priced.app).post('/v1/embeddings').set(auth).send({ model: 'sim-embed', input: 'twelve chars' });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('quota_exhausted');
    const gemini = await request(priced.app)
      .post('/v1beta/models/sim-embed:embedContent')
      .set({ 'x-goog-api-key': BETA_KEY })
      .send({ content: { parts: [{ text: 'x' }] } });
    expect(gemini.status).toBe(429);
    expect(gemini.body.error.status).toBe('RESOURCE_EXHAUSTED');
    const quota = await request(priced.app).get('/admin/accounts/beta/quota').set('Authorization', `Bearer ${ADMIN}`);
    expect(quota.body.credits_used).toBe(6);
  });
});
