import request from 'supertest';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { usageRow } from '../support/provider-gateway';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/** Gemini to Google: the upstream receives exactly the body the client sent; only the model in the path changes. */
let gw: TestGateway;
let gemini: FakeUpstream;
beforeAll(async () => {
  gemini = await startFakeUpstream('gemini');
  const base = testConfigFile();
  gw = await startTestGateway({
    config: testConfigFile({
      // cachedContent names a resource of the upstream account: this operator allows it (account-resources.contract.test.ts)
      providers: [
        ...base.providers,
        { id: 'google', type: 'google', baseUrl: gemini.url, apiKey: gemini.apiKey, accountResources: 'allow' },
      ],
      models: [
        ...base.models,
        {
          id: 'gemini-house',
          kind: 'text',
          provider: 'google',
          upstreamModel: 'gemini-2.5-pro',
          reasoningEfforts: ['low', 'medium', 'high'],
        },
      ],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
  await gemini.close();
});
beforeEach(() => gemini.reset());

/** What @google/genai and Gemini CLI send, including fields the canonical model has no place for. */
const clientBody = {
  contents: [
    { role: 'user', parts: [{ text: 'Summarise the file.' }] },
    { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { path: 'a.ts' } }, thoughtSignature: 'c2ln' }] },
    { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'export {}' } } }] },
  ],
  systemInstruction: { parts: [{ text: 'You are Gemini CLI.' }] },
  tools: [
    { functionDeclarations: [{ name: 'read_file', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } }] },
  ],
  generationConfig: {
    temperature: 0,
    thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 },
    responseMimeType: 'application/json',
    responseJsonSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
  },
  cachedContent: 'cachedContents/abc123',
  safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
  aFieldFromNextMonth: { nested: [1, 'two', { three: null }] },
};

const post = (verb: string, query = '') =>
  request(gw.url).post(`/v1beta/models/gemini-house:${verb}${query}`).set('x-goog-api-key', BETA_KEY).send(clientBody);

describe('Gemini to Google passthrough', () => {
  it('generateContent: the body arrives unchanged; the path names the upstream model', async () => {
    gemini.enqueue({ reply: { text: '{"summary":"empty module"}', usage: { input: 900, cached: 800, output: 12 } } });
    const res = await post('generateContent');
    expect(res.status).toBe(200);
    expect(gemini.requests).toHaveLength(1);
    expect(gemini.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(gemini.requests[0]!.body).toEqual(clientBody);
    expect(res.body.usageMetadata).toMatchObject({ promptTokenCount: 900, cachedContentTokenCount: 800 });
    expect(await usageRow(gw, res.headers['x-request-id']!)).toMatchObject({ input_tokens: 900, cached_tokens: 800 });
  });

  it('streamGenerateContent: the same exact body', async () => {
    const res = await post('streamGenerateContent', '?alt=sse');
    expect(res.status).toBe(200);
    expect(gemini.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent');
    expect(gemini.requests[0]!.query).toMatchObject({ alt: 'sse' });
    expect(gemini.requests[0]!.body).toEqual(clientBody);
    expect(res.text).toContain('"finishReason":"STOP"');
  });

  it('a chat completions request to the same model is translated, not forwarded', async () => {
    const res = await request(gw.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${BETA_KEY}`)
      .send({ model: 'gemini-house', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(gemini.requests[0]!.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  });
});
