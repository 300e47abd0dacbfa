import request from 'supertest';
import { googleErrorParts } from '@gateway/wire-gemini-content';
import { DEFAULT_CONFIG } from '../src/default-config';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({
    listen: false,
    config: testConfigFile({
      models: [
        ...DEFAULT_CONFIG.models,
        {
          id: 'sim-chat-pro',
          kind: 'text',
          provider: 'sim',
          displayName: 'Sim Chat Pro',
          inputTokenLimit: 200000,
          outputTokenLimit: 64000,
        },
        { id: 'sim-image-plain', kind: 'image', provider: 'sim' },
      ],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
});

/** Group `default` (alpha) vs `vip` (beta, every model). */
const ALPHA_MODELS = ['sim-chat', 'sim-image', 'sim-video-2.0', 'sim-video-2.0-fast'];
const VIP_ONLY = ['sim-video-2.5', 'sim-video-2.0-mini', 'sim-chat-pro', 'sim-image-plain'];
const ALL_MODELS = [...DEFAULT_CONFIG.models.map((m) => m.id), 'sim-chat-pro', 'sim-image-plain'];

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const anthropic = (key: string) => ({ Authorization: `Bearer ${key}`, 'anthropic-version': '2026-10-21' });

async function allGeminiNames(key: string, pageSize: number): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const res = await request(gw.app)
      .get('/v1beta/models')
      .set('x-goog-api-key', key)
      .query({ pageSize, ...(token ? { pageToken: token } : {}) });
    expect(res.status).toBe(200);
    expect(res.body.models.length).toBeLessThanOrEqual(pageSize);
    names.push(...res.body.models.map((m: { name: string }) => m.name));
    token = res.body.nextPageToken;
    if (token !== undefined) expect(token).not.toBe('');
    pages++;
  } while (token !== undefined && pages < 50);
  return { names, pages };
}

describe('group filtering, in every list', () => {
  it('alpha never sees a vip-only model; beta sees them all', async () => {
    const lists = async (key: string) => [
      (await allGeminiNames(key, 2)).names.map((n) => n.replace(/^models\//, '')),
      (await request(gw.app).get('/v1/models').set(bearer(key))).body.data.map((m: { id: string }) => m.id),
      (await request(gw.app).get('/v1/models').set(anthropic(key))).body.data.map((m: { id: string }) => m.id),
    ];
    const [gemini, openai, claude] = await lists(ALPHA_KEY);
    expect(gemini).toEqual(ALPHA_MODELS);
    expect(openai).toEqual(ALPHA_MODELS);
    expect(claude).toEqual(['sim-chat']);
    for (const id of VIP_ONLY) expect([...gemini, ...openai, ...claude]).not.toContain(id);

    const [g2, o2, c2] = await lists(BETA_KEY);
    expect(g2).toEqual(ALL_MODELS);
    expect(o2).toEqual(ALL_MODELS);
    expect(c2).toEqual(['sim-chat', 'sim-chat-pro']);
  });

  it('alpha cannot fetch a vip-only model by id in any format: it looks absent', async () => {
    for (const id of VIP_ONLY) {
      const g = await request(gw.app).get(`/v1beta/models/${id}`).set('x-goog-api-key', ALPHA_KEY);
      expect(g.status).toBe(404);
      expect(g.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
      const o = await request(gw.app).get(`/v1/models/${id}`).set(bearer(ALPHA_KEY));
      expect(o.status).toBe(404);
      expect(o.body.error).toMatchObject({ type: 'not_found_error', code: 'model_not_found', param: 'model' });
    }
    const unknown = await request(gw.app).get('/v1beta/models/no-such-model').set('x-goog-api-key', ALPHA_KEY);
    const outside = await request(gw.app).get('/v1beta/models/sim-video-2.5').set('x-goog-api-key', ALPHA_KEY);
    expect(unknown.body.error.message.replace('no-such-model', 'X')).toBe(outside.body.error.message.replace('sim-video-2.5', 'X'));
  });
});

describe('GET /v1beta/models', () => {
  it('entries carry the fields the SDK reads; methods follow the kind', async () => {
    const res = await request(gw.app).get('/v1beta/models').set(bearer(BETA_KEY));
    expect(res.status).toBe(200);
    expect('nextPageToken' in res.body).toBe(false);
    const byName = Object.fromEntries(res.body.models.map((m: { name: string }) => [m.name, m]));
    expect(byName['models/sim-chat-pro']).toEqual({
      name: 'models/sim-chat-pro',
      version: '001',
      displayName: 'Sim Chat Pro',
      description: expect.any(String),
      inputTokenLimit: 200000,
      outputTokenLimit: 64000,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
    });
    expect(byName['models/sim-image'].supportedGenerationMethods).toEqual(['generateContent']);
    expect(byName['models/sim-video-2.0-fast']).toMatchObject({ version: '2.0', supportedGenerationMethods: ['predictLongRunning'] });
    for (const m of res.body.models) {
      expect(Number.isInteger(m.inputTokenLimit) && Number.isInteger(m.outputTokenLimit)).toBe(true);
      expect(typeof m.displayName).toBe('string');
    }
  });

  it('pages with pageSize/pageToken; the last page has no nextPageToken', async () => {
    const beta = await allGeminiNames(BETA_KEY, 3);
    expect(beta.pages).toBe(Math.ceil(ALL_MODELS.length / 3));
    expect(beta.names).toEqual(ALL_MODELS.map((id) => `models/${id}`));
    const alpha = await allGeminiNames(ALPHA_KEY, 4);
    expect(alpha.pages).toBe(1);
  });

  it('pageSize 0 means the default; a huge one is capped', async () => {
    for (const pageSize of ['0', '100000']) {
      const res = await request(gw.app).get('/v1beta/models').set(bearer(BETA_KEY)).query({ pageSize });
      expect(res.body.models).toHaveLength(ALL_MODELS.length);
    }
  });

  it.each([
    ['a negative pageSize', { pageSize: '-1' }, 'pageSize'],
    ['a non-numeric pageSize', { pageSize: 'ten' }, 'pageSize'],
    ['a garbage pageToken', { pageToken: 'xyz' }, 'pageToken'],
  ])("%s is a 400 in Google's shape", async (_name, query, param) => {
    const res = await request(gw.app).get('/v1beta/models').set(bearer(ALPHA_KEY)).query(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(googleErrorParts(res.body).param).toBe(param);
  });

  it('a page token naming a model outside the group is refused, not honoured', async () => {
    const first = await request(gw.app).get('/v1beta/models').set(bearer(BETA_KEY)).query({ pageSize: 3 });
    expect(first.body.models[2].name).toBe('models/sim-video-2.5');
    const res = await request(gw.app).get('/v1beta/models').set(bearer(ALPHA_KEY)).query({ pageToken: first.body.nextPageToken });
    expect(res.status).toBe(400);
  });

  it('GET /v1beta/models/{model} returns one entry', async () => {
    const res = await request(gw.app).get('/v1beta/models/sim-image').set('x-goog-api-key', ALPHA_KEY);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'models/sim-image', supportedGenerationMethods: ['generateContent'] });
  });

  it('leaves other verbs on the same path to their own routers', async () => {
    const verb = await request(gw.app).get('/v1beta/models/sim-chat:generateContent').set('x-goog-api-key', ALPHA_KEY);
    expect(verb.body.name).toBeUndefined();
    expect(verb.body.error?.type).not.toBe('model_not_found');
    const op = await request(gw.app).get('/v1beta/models/sim-video-2.0/operations/nope').set('x-goog-api-key', ALPHA_KEY);
    expect(op.body.supportedGenerationMethods).toBeUndefined();
    expect(op.body.error?.type ?? op.body.code).not.toBe('model_not_found');
  });

  it("needs a key: 401 in Google's shape", async () => {
    const res = await request(gw.app).get('/v1beta/models');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  });
});

describe('GET /v1/models (OpenAI shape)', () => {
  it('lists the group with id, object, created, owned_by', async () => {
    const res = await request(gw.app).get('/v1/models').set(bearer(ALPHA_KEY));
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    // video entries add their capabilities (video-capabilities.contract.test.ts)
    for (const { video_capabilities, ...m } of res.body.data) {
      expect(m).toEqual({ id: expect.any(String), object: 'model', created: expect.any(Number), owned_by: 'gateway' });
      expect(video_capabilities === undefined).toBe(!m.id.includes('video'));
    }
  });

  it('GET /v1/models/{id}', async () => {
    const res = await request(gw.app).get('/v1/models/sim-video-2.0').set(bearer(ALPHA_KEY));
    expect(res.body).toMatchObject({ id: 'sim-video-2.0', object: 'model' });
  });

  it('401 without a key, in the OpenAI shape', async () => {
    const res = await request(gw.app).get('/v1/models');
    expect(res.status).toBe(401);
    expect(res.body.error.type).toBe('authentication_error');
  });
});

describe('GET /v1/models with anthropic-version (Anthropic shape)', () => {
  it('lists text models with type, id, display_name, created_at (RFC 3339)', async () => {
    const res = await request(gw.app).get('/v1/models').set(anthropic(BETA_KEY));
    expect(res.body).toEqual({
      data: [
        { type: 'model', id: 'sim-chat', display_name: 'sim-chat', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
        { type: 'model', id: 'sim-chat-pro', display_name: 'Sim Chat Pro', created_at: expect.any(String) },
      ],
      has_more: false,
      first_id: 'sim-chat',
      last_id: 'sim-chat-pro',
    });
  });

  it('pages with limit, after_id and before_id', async () => {
    const list = (query: Record<string, string>) => request(gw.app).get('/v1/models').set(anthropic(BETA_KEY)).query(query);
    expect((await list({ limit: '1' })).body).toMatchObject({
      data: [{ id: 'sim-chat' }],
      has_more: true,
      first_id: 'sim-chat',
      last_id: 'sim-chat',
    });
    expect((await list({ limit: '1', after_id: 'sim-chat' })).body).toMatchObject({ data: [{ id: 'sim-chat-pro' }], has_more: false });
    expect((await list({ limit: '1', before_id: 'sim-chat-pro' })).body).toMatchObject({ data: [{ id: 'sim-chat' }], has_more: false });
    expect((await list({ after_id: 'sim-chat-pro' })).body).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });

  it.each([
    ['limit 0', { limit: '0' }, 'limit'],
    ['limit 1001', { limit: '1001' }, 'limit'],
    ['both cursors', { after_id: 'sim-chat', before_id: 'sim-chat' }, 'before_id'],
    ['a cursor outside the group', { after_id: 'sim-chat-pro' }, 'after_id'],
  ])("%s is a 400 in Anthropic's shape", async (_name, query, param) => {
    const res = await request(gw.app).get('/v1/models').set(anthropic(ALPHA_KEY)).query(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', param } });
  });

  it("one model; non-text and other groups' models are 404 not_found_error", async () => {
    expect((await request(gw.app).get('/v1/models/sim-chat').set(anthropic(ALPHA_KEY))).body).toMatchObject({
      type: 'model',
      id: 'sim-chat',
    });
    for (const id of ['sim-image', 'sim-chat-pro']) {
      const res = await request(gw.app).get(`/v1/models/${id}`).set(anthropic(ALPHA_KEY));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    }
  });

  it("x-api-key works (Anthropic 0.x); no key is a 401 in Anthropic's shape", async () => {
    const ok = await request(gw.app).get('/v1/models').set({ 'x-api-key': ALPHA_KEY, 'anthropic-version': '2023-06-01' });
    expect(ok.body.data.map((m: { id: string }) => m.id)).toEqual(['sim-chat']);
    const res = await request(gw.app).get('/v1/models').set('anthropic-version', '2023-06-01');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});
