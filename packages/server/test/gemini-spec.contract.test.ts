import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { eventually } from '@gateway/testkit';
import request from 'supertest';
import { BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

/**
 * Recorded answers of the Gemini-shaped routes validated against Google's generativelanguage v1beta definitions,
 * written as JSON Schema in __fixtures__/gemini-v1beta.subset.json (its `source` says from where). The objects are
 * closed: a field Google does not define (such as OpenAI's `type` or `param` in an error) fails.
 */
const spec = JSON.parse(readFileSync(path.join(__dirname, '__fixtures__/gemini-v1beta.subset.json'), 'utf8'));
/** The gateway's documented additions, the only fields allowed beyond Google's. */
const EXTENSIONS: Record<string, Record<string, object>> = {
  // docs/formats/model-lists.md: a video model's limits
  Model: { videoCapabilities: { type: 'object' } },
};
for (const [name, fields] of Object.entries(EXTENSIONS)) Object.assign(spec.definitions[name].properties, fields);
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'gemini', definitions: spec.definitions });

function expectValid(name: string, value: unknown): void {
  const validate = ajv.getSchema(`gemini#/definitions/${name}`)!;
  const ok = validate(value);
  expect({ name, errors: ok ? null : validate.errors?.slice(0, 5) }).toEqual({ name, errors: null });
}

const sseData = (text: string): any[] =>
  text
    .split('\n\n')
    .map((frame) => /^data: (.*)$/m.exec(frame)?.[1])
    .filter((d): d is string => d !== undefined)
    .map((d) => JSON.parse(d));

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false });
  await gw.startBackground(); // the video worker: operations finish
});
afterAll(() => gw.stop());

const key = { 'x-goog-api-key': BETA_KEY };
const contents = [{ role: 'user', parts: [{ text: 'weather in Oslo' }] }];
const weather = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Weather in a city',
      parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
    },
  ],
};

describe.each(['v1beta', 'v1'])("/%s answers validate against Google's definitions", (version) => {
  const post = (p: string, body: object) => request(gw.app).post(`/${version}${p}`).set(key).send(body);
  const get = (p: string) => request(gw.app).get(`/${version}${p}`).set(key);

  it('generateContent: a text answer with thinking, a function call', async () => {
    const text = await post('/models/sim-chat:generateContent', {
      contents,
      generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    });
    expect(text.status).toBe(200);
    expectValid('GenerateContentResponse', text.body);

    const call = await post('/models/sim-chat:generateContent', {
      contents,
      tools: [weather],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    });
    expect(call.status).toBe(200);
    expect(call.body.candidates[0].content.parts.some((p: any) => p.functionCall)).toBe(true);
    expectValid('GenerateContentResponse', call.body);
  });

  it('streamGenerateContent: every chunk', async () => {
    const res = await post('/models/sim-chat:streamGenerateContent?alt=sse', { contents });
    expect(res.status).toBe(200);
    const chunks = sseData(res.text);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expectValid('GenerateContentResponse', chunk);
  });

  it('countTokens, the model list and one model', async () => {
    const count = await post('/models/sim-chat:countTokens', { contents });
    expect(count.status).toBe(200);
    expectValid('CountTokensResponse', count.body);

    const list = await get('/models');
    expect(list.status).toBe(200);
    expect(list.body.models.length).toBeGreaterThan(0);
    expectValid('ListModelsResponse', list.body);

    const one = await get('/models/sim-chat');
    expect(one.status).toBe(200);
    expectValid('Model', one.body);
  });

  it('errors: a bad body, an unknown model, a missing key', async () => {
    const bad = await post('/models/sim-chat:generateContent', { contents: [] });
    expect(bad.status).toBe(400);
    expectValid('ErrorResponse', bad.body);

    const unknown = await post('/models/no-such-model:generateContent', { contents });
    expect(unknown.status).toBe(404);
    expectValid('ErrorResponse', unknown.body);

    // (a key-less GET /v1/models is OpenAI's list: the dialect is told by the key header, docs/formats/model-lists.md)
    const anonymous = await request(gw.app).post(`/${version}/models/sim-chat:generateContent`).send({ contents });
    expect(anonymous.status).toBe(401);
    expectValid('ErrorResponse', anonymous.body);
  });

  it('a video operation, pending and done', async () => {
    const created = await post('/models/sim-video-2.0:predictLongRunning', { instances: [{ prompt: 'a red square' }] });
    expect(created.status).toBe(200);
    expectValid('Operation', created.body);

    let done: any;
    expect(
      await eventually(
        async () => {
          const res = await get(`/${created.body.name}`);
          done = res.body;
          if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
          return done.done === true;
        },
        15_000,
        100,
      ),
    ).toBe(true);
    expectValid('Operation', done);
  });
});
