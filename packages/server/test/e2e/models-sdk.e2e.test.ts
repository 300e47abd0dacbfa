import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import { DEFAULT_CONFIG } from '../../src/default-config';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({
    config: testConfigFile({
      models: [...DEFAULT_CONFIG.models, { id: 'sim-chat-pro', kind: 'text', provider: 'sim', displayName: 'Sim Chat Pro' }],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
});

/** Jest's vm context lacks Node's undici dispatcher; handing the SDK the global fetch changes nothing on the wire. */
const genai = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gw.url, fetch: (url, init) => fetch(url, init) } });

describe('@google/genai models.list / models.get', () => {
  it('pages through every page with pageSize 2 and stops (nextPageToken absent on the last page)', async () => {
    const pager = await genai(BETA_KEY).models.list({ config: { pageSize: 2 } });
    const names: string[] = [];
    for await (const m of pager) names.push(m.name!);
    expect(names).toEqual([...DEFAULT_CONFIG.models.map((m) => `models/${m.id}`), 'models/sim-chat-pro']);
  });

  it("exposes supportedActions by kind and only the key's group", async () => {
    const models = [];
    for await (const m of await genai(ALPHA_KEY).models.list({ config: { pageSize: 3 } })) models.push(m);
    expect(models.map((m) => m.name)).toEqual(['models/sim-chat', 'models/sim-image', 'models/sim-video-2.0', 'models/sim-video-2.0-fast']);
    expect(models[0]).toMatchObject({
      supportedActions: ['generateContent', 'streamGenerateContent'],
      inputTokenLimit: expect.any(Number),
    });
    expect(models[2]!.supportedActions).toEqual(['predictLongRunning']);
  });

  it('models.get returns one model; outside the group it is a 404 ApiError', async () => {
    const ai = genai(ALPHA_KEY);
    expect((await ai.models.get({ model: 'sim-chat' })).displayName).toBe('sim-chat');
    const e = await ai.models.get({ model: 'sim-chat-pro' }).catch((err) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(404);
  });
});

describe('@anthropic-ai/sdk 1.x models.list', () => {
  it("lists the group's text models in Anthropic's shape", async () => {
    const client = new Anthropic({ apiKey: BETA_KEY, baseURL: gw.url, maxRetries: 0 });
    const models = [];
    for await (const m of client.models.list()) models.push(m);
    expect(models.map((m) => [m.id, m.display_name, m.type])).toEqual([
      ['sim-chat', 'sim-chat', 'model'],
      ['sim-chat-pro', 'Sim Chat Pro', 'model'],
    ]);
    expect(Number.isNaN(Date.parse(models[0]!.created_at))).toBe(false);
  });

  it('auto-pages with limit 1', async () => {
    const client = new Anthropic({ apiKey: BETA_KEY, baseURL: gw.url, maxRetries: 0 });
    const ids = [];
    for await (const m of client.models.list({ limit: 1 })) ids.push(m.id);
    expect(ids).toEqual(['sim-chat', 'sim-chat-pro']);
  });

  it('another group sees only its own', async () => {
    const client = new Anthropic({ apiKey: ALPHA_KEY, baseURL: gw.url, maxRetries: 0 });
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(['sim-chat']);
    await expect(client.models.retrieve('sim-chat-pro')).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });
});
