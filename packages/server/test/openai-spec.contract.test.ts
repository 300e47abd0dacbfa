import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import request from 'supertest';
import { BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

/**
 * Recorded answers of the OpenAI-shaped routes validated against OpenAI's own published OpenAPI document: the
 * schemas reachable from the answer types, vendored in __fixtures__/openai-openapi.subset.json (its `source` names
 * the commit). Additional fields are allowed, as the spec allows them: the gateway's extensions are additive.
 */
const spec = JSON.parse(readFileSync(path.join(__dirname, '__fixtures__/openai-openapi.subset.json'), 'utf8'));
// OpenAPI's `nullable` is an ajv keyword; `discriminator` and the `x-` keys are annotations here
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'openai', components: spec.components });

function expectValid(schemaName: string, value: unknown): void {
  const validate = ajv.getSchema(`openai#/components/schemas/${schemaName}`)!;
  const ok = validate(value);
  expect({ schemaName, errors: ok ? null : validate.errors?.slice(0, 5) }).toEqual({ schemaName, errors: null });
}

const isValid = (schemaName: string, value: unknown) => ajv.getSchema(`openai#/components/schemas/${schemaName}`)!(value);

function sseData(text: string): any[] {
  return text
    .split('\n\n')
    .map((frame) => /^data: (.*)$/m.exec(frame)?.[1])
    .filter((d): d is string => d !== undefined && d !== '[DONE]')
    .map((d) => JSON.parse(d));
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false });
});
afterAll(() => gw.stop());

const auth = { Authorization: `Bearer ${BETA_KEY}` };
const post = (p: string, body: object) => request(gw.app).post(p).set(auth).send(body);
const weather = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe("answers validate against OpenAI's OpenAPI document", () => {
  it('chat completions: an answer, a tool call, stream chunks with usage, an error', async () => {
    const plain = await post('/v1/chat/completions', { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }], user: 'u-1' });
    expect(plain.status).toBe(200);
    expectValid('CreateChatCompletionResponse', plain.body);

    const { type: _t, ...fn } = weather;
    const tool = await post('/v1/chat/completions', {
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'weather in Oslo' }],
      tools: [{ type: 'function', function: fn }],
      tool_choice: 'required',
    });
    expect(tool.status).toBe(200);
    expectValid('CreateChatCompletionResponse', tool.body);

    const stream = await post('/v1/chat/completions', {
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = sseData(stream.text);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expectValid('CreateChatCompletionStreamResponse', chunk);

    const error = await post('/v1/chat/completions', { model: 'sim-chat', messages: [] });
    expect(error.status).toBe(400);
    expectValid('ErrorResponse', error.body);
  });

  it('responses: an answer echoing a function tool and a user, and every stream event', async () => {
    const res = await post('/v1/responses', { model: 'sim-chat', input: 'weather in Oslo', tools: [weather], user: 'u-1' });
    expect(res.status).toBe(200);
    expectValid('Response', res.body);
    expect(res.body.tools[0]).toHaveProperty('strict');
    // the check is not vacuous: the defects the gateway had fail it
    const { strict: _s, ...noStrict } = res.body.tools[0];
    expect(isValid('Response', { ...res.body, usage: null })).toBe(false);
    expect(isValid('Response', { ...res.body, user: null })).toBe(false);
    expect(isValid('Response', { ...res.body, tools: [noStrict] })).toBe(false);

    const stream = await post('/v1/responses', {
      model: 'sim-chat',
      input: 'hi',
      stream: true,
      reasoning: { effort: 'low', summary: 'auto' },
    });
    const events = sseData(stream.text);
    expect(events.at(-1).type).toBe('response.completed');
    for (const event of events) expectValid('ResponseStreamEvent', event);
  });

  it('images: a generation, its stream events, and an edit', async () => {
    const gen = await post('/v1/images/generations', {
      model: 'sim-image',
      prompt: 'a red fox',
      size: '1024x1024',
      response_format: 'b64_json',
    });
    expect(gen.status).toBe(200);
    expectValid('ImagesResponse', gen.body);
    expect(isValid('ImagesResponse', { ...gen.body, quality: 'auto' })).toBe(false);
    expect(isValid('ImagesResponse', { ...gen.body, size: '1x1' })).toBe(false);

    const stream = await post('/v1/images/generations', {
      model: 'sim-image',
      prompt: 'a red fox',
      size: '1024x1024',
      stream: true,
      partial_images: 1,
    });
    const events = sseData(stream.text);
    expect(events.map((e) => e.type)).toEqual(['image_generation.partial_image', 'image_generation.completed']);
    expectValid('ImageGenPartialImageEvent', events[0]);
    expectValid('ImageGenCompletedEvent', events[1]);

    const png = Buffer.from(gen.body.data[0].b64_json, 'base64');
    const edit = await request(gw.app)
      .post('/v1/images/edits')
      .set(auth)
      .field('model', 'sim-image')
      .field('prompt', 'paint it blue')
      .field('response_format', 'b64_json')
      .attach('image', png, { filename: 'fox.png', contentType: 'image/png' });
    expect(edit.status).toBe(200);
    expectValid('ImagesResponse', edit.body);
  });

  it('an image edit of a 1x1 input: the answer and its stream events name only sizes the schema lists', async () => {
    const onePixel = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const edit = (fields: Record<string, string>) => {
      const r = request(gw.app).post('/v1/images/edits').set(auth).field('model', 'sim-image').field('prompt', 'paint it blue');
      for (const [k, v] of Object.entries(fields)) r.field(k, v);
      return r.attach('image', onePixel, { filename: 'dot.png', contentType: 'image/png' });
    };
    const plain = await edit({ response_format: 'b64_json' });
    expect(plain.status).toBe(200);
    expectValid('ImagesResponse', plain.body);
    const streamed = await edit({ stream: 'true', partial_images: '1' });
    expect(streamed.status).toBe(200);
    const events = sseData(streamed.text);
    expect(events.map((e) => e.type)).toEqual(['image_edit.partial_image', 'image_edit.completed']);
    expectValid('ImageEditPartialImageEvent', events[0]);
    expectValid('ImageEditCompletedEvent', events[1]);
  });
});
