import request from 'supertest';
import { buildOpenApiDocument } from '../src/openapi';
import { BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

// @google/genai 3.x calls /v1 by default: every Gemini route answers there as under /v1beta (one declaration each).
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false });
});
afterAll(async () => {
  await gw.stop();
});

const goog = { 'x-goog-api-key': BETA_KEY };
const VERSIONS = ['v1beta', 'v1'] as const;
const get = (path: string, headers: Record<string, string> = goog) => request(gw.app).get(path).set(headers);
const post = (path: string, body: object, headers: Record<string, string> = goog) => request(gw.app).post(path).set(headers).send(body);
const content = { contents: [{ role: 'user', parts: [{ text: 'Hello from the newest SDK' }] }] };
/** What may differ between two answers to the same request: ids made per request. */
const stable = (body: Record<string, unknown>) => ({ ...body, responseId: undefined });

describe('the Gemini routes answer under /v1 as under /v1beta', () => {
  it('generateContent', async () => {
    const [beta, v1] = await Promise.all(VERSIONS.map((v) => post(`/${v}/models/sim-chat:generateContent`, content)));
    expect(v1!.status).toBe(200);
    expect(v1!.body.candidates[0].content.parts[0].text).toContain('Hello from the newest SDK');
    expect(stable(v1!.body)).toEqual(stable(beta!.body));
  });

  it('streamGenerateContent, as SSE and as one JSON array', async () => {
    for (const v of VERSIONS) {
      const sse = await post(`/${v}/models/sim-chat:streamGenerateContent?alt=sse`, content);
      expect(sse.status).toBe(200);
      expect(sse.headers['content-type']).toContain('text/event-stream');
      expect(sse.text).toContain('newest');
      const array = await post(`/${v}/models/sim-chat:streamGenerateContent`, content);
      expect(array.status).toBe(200);
      expect(Array.isArray(array.body)).toBe(true);
    }
  });

  it('countTokens', async () => {
    const [beta, v1] = await Promise.all(VERSIONS.map((v) => post(`/${v}/models/sim-chat:countTokens`, content)));
    expect(v1!.status).toBe(200);
    expect(v1!.body.totalTokens).toBeGreaterThan(0);
    expect(v1!.body).toEqual(beta!.body);
  });

  it('models.list and models.get, with x-goog-api-key or ?key=', async () => {
    const beta = await get('/v1beta/models?pageSize=3');
    expect(beta.body.models).toHaveLength(3);
    expect((await get('/v1/models?pageSize=3')).body).toEqual(beta.body);
    expect((await get(`/v1/models?pageSize=3&key=${BETA_KEY}`, {})).body).toEqual(beta.body);
    const one = await get('/v1beta/models/sim-chat');
    expect(one.body.name).toBe('models/sim-chat');
    expect((await get('/v1/models/sim-chat')).body).toEqual(one.body);
    expect((await get(`/v1/models/sim-chat?key=${BETA_KEY}`, {})).body).toEqual(one.body);
  });

  it('a video operation: predictLongRunning, the operation, its file', async () => {
    const created = await post('/v1/models/sim-video-2.0:predictLongRunning', { instances: [{ prompt: 'a cat on a piano' }] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ name: expect.stringMatching(/^models\/sim-video-2\.0\/operations\/[a-z0-9]+$/), done: false });
    const name = created.body.name as string;
    const [beta, v1] = await Promise.all(VERSIONS.map((v) => get(`/${v}/${name}`)));
    expect(v1!.status).toBe(200);
    expect(v1!.body).toEqual(beta!.body);
    // no worker runs here: the file is not ready, and both versions say so in the same {code, message} body
    const id = name.split('/').pop()!;
    const [betaFile, v1File] = await Promise.all(VERSIONS.map((v) => get(`/${v}/files/${id}:download?alt=media`)));
    expect(v1File!.status).toBeGreaterThanOrEqual(400);
    expect({ status: v1File!.status, body: v1File!.body }).toEqual({ status: betaFile!.status, body: betaFile!.body });
    expect(v1File!.body).toEqual({ code: expect.any(String), message: expect.any(String) });
  });

  it("errors keep each route's shape: Google's on models/{model}:{verb}, {code, message} on operations", async () => {
    const [beta, v1] = await Promise.all(VERSIONS.map((v) => post(`/${v}/models/no-such-model:generateContent`, content)));
    expect(v1!.status).toBe(404);
    expect(v1!.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(v1!.body).toEqual(beta!.body);
    const unknownVerb = await post('/v1/models/sim-chat:noSuchVerb', content);
    expect(unknownVerb.status).toBe(404);
    expect(unknownVerb.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    const op = await get('/v1/models/sim-video-2.0/operations/nosuchtask');
    expect(op.status).toBe(404);
    expect(op.body).toEqual({ code: expect.any(String), message: expect.any(String) });
  });
});

describe("GET /v1/models answers in the caller's dialect, read from how it authenticates", () => {
  const anthropicKey = { 'x-api-key': BETA_KEY, 'anthropic-version': '2023-06-01' };
  const bearer = { Authorization: `Bearer ${BETA_KEY}` };

  it("x-goog-api-key or ?key= → Gemini's page; x-api-key with anthropic-version → Anthropic's; bearer → OpenAI's", async () => {
    expect(Object.keys((await get('/v1/models')).body)).toEqual(expect.arrayContaining(['models']));
    const claude = await get('/v1/models', anthropicKey);
    expect(claude.body).toMatchObject({ data: expect.any(Array), has_more: expect.any(Boolean) });
    expect(claude.body.data[0]).toMatchObject({ type: 'model' });
    const openai = await get('/v1/models', bearer);
    expect(openai.body).toMatchObject({ object: 'list' });
    expect(openai.body.data[0]).toMatchObject({ object: 'model' });
  });

  it('one model, and an absent one in each dialect', async () => {
    expect((await get('/v1/models/sim-chat', anthropicKey)).body).toMatchObject({ type: 'model', id: 'sim-chat' });
    expect((await get('/v1/models/sim-chat', bearer)).body).toMatchObject({ object: 'model', id: 'sim-chat' });
    const gemini = await get('/v1/models/nope');
    expect(gemini.status).toBe(404);
    expect(gemini.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    const claude = await get('/v1/models/nope', anthropicKey);
    expect(claude.status).toBe(404);
    expect(claude.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const openai = await get('/v1/models/nope', bearer);
    expect(openai.status).toBe(404);
    expect(openai.body.error).toMatchObject({ code: 'model_not_found' });
  });

  it("a wrong Gemini key is refused in Google's shape", async () => {
    const res = await get('/v1/models', { 'x-goog-api-key': 'sk-wrong-0000' });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  });
});

it('/openapi.json documents the Gemini routes under /v1 too', () => {
  const { paths } = buildOpenApiDocument({ publicBaseUrl: 'https://gateway.test' }) as { paths: Record<string, Record<string, unknown>> };
  for (const v of VERSIONS) {
    for (const verb of ['generateContent', 'streamGenerateContent', 'countTokens', 'predictLongRunning'])
      expect(paths[`/${v}/models/{model}:${verb}`]?.post).toBeDefined();
    expect(paths[`/${v}/models/{model}/operations/{id}`]?.get).toBeDefined();
    expect(paths[`/${v}/files/{id}:download`]?.get).toBeDefined();
  }
  expect(JSON.stringify(paths['/v1/models']!.get)).toContain('x-goog-api-key');
});
