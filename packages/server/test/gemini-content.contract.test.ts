import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eventually } from '@gateway/testkit';
import request from 'supertest';
import { probeImage, type TextStreamPart } from '@gateway/core';
import { geminiContentFormat, googleErrorParts } from '@gateway/wire-gemini-content';
import { scriptedTextApp, scriptedTextPort, streamThenDisconnect } from './support/scripted-text-app';
import { ALPHA_KEY, BETA_KEY, startTextContractGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTextContractGateway();
});
afterAll(() => gw.stop());

const base = { contents: [{ role: 'user', parts: [{ text: 'Tell me about rivers' }] }] };
const weather = {
  name: 'get_weather',
  description: 'Current weather',
  parameters: {
    type: 'OBJECT',
    properties: { city: { type: 'STRING' }, days: { type: 'INTEGER', minimum: 1, maximum: 7 } },
    required: ['city', 'days'],
  },
};

function post(body: object, opts: { model?: string; verb?: string; query?: string; headers?: Record<string, string> } = {}) {
  const r = request(gw.app).post(`/v1beta/models/${opts.model ?? 'sim-chat'}:${opts.verb ?? 'generateContent'}${opts.query ?? ''}`);
  const headers: Record<string, string> = { 'x-goog-api-key': ALPHA_KEY, ...opts.headers };
  for (const [k, v] of Object.entries(headers)) if (v !== '') r.set(k, v);
  return r.send(body);
}

/** Raw SSE text → data objects, checking that no event carries an `event:` line. */
function dataEvents(text: string): any[] {
  return text
    .split('\n\n')
    .filter((m) => m.trim())
    .map((m) => {
      expect(m.startsWith('data: ')).toBe(true);
      expect(m).not.toMatch(/^event:/m);
      return JSON.parse(m.slice('data: '.length));
    });
}

const textOf = (chunk: any): string =>
  (chunk.candidates?.[0]?.content?.parts ?? [])
    .filter((p: any) => !p.thought && typeof p.text === 'string')
    .map((p: any) => p.text)
    .join('');

function expectGoogleError(res: request.Response, status: number, googleStatus: string, code?: string, param?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  // Google's fields only: the gateway's code and the field at fault travel in `details`
  expect(res.body).toEqual({
    error: { code: status, message: expect.any(String), status: googleStatus, details: expect.arrayContaining([expect.anything()]) },
  });
  if (code) expect(googleErrorParts(res.body).code).toBe(code);
  if (param !== undefined) expect(googleErrorParts(res.body).param ?? '').toBe(param);
}

describe("errors carry Google's fields only", () => {
  it('the docs example is what the gateway answers to {"contents": []}', async () => {
    const page = readFileSync(path.join(__dirname, '../../../docs/formats/gemini-generate-content.md'), 'utf8');
    const documented = JSON.parse(/\*\*Errors\.\*\*[\s\S]*?```json\n([\s\S]*?)```/.exec(page)![1]!);
    const res = await post({ contents: [] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(documented);
  });
});

describe('POST /v1beta/models/{model}:generateContent', () => {
  it('answers with a GenerateContentResponse', async () => {
    const res = await post(base);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      candidates: [
        {
          content: { role: 'model', parts: [{ text: expect.stringContaining('Tell me about rivers') }] },
          finishReason: 'STOP',
          index: 0,
          safetyRatings: [],
        },
      ],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: expect.any(Number), totalTokenCount: expect.any(Number) },
      modelVersion: 'sim-chat',
      responseId: expect.any(String),
    });
    const u = res.body.usageMetadata;
    expect(u.totalTokenCount).toBe(u.promptTokenCount + u.candidatesTokenCount);
  });

  it('accepts a bearer key and the models/ name form of the SDK', async () => {
    const res = await post(base, { headers: { 'x-goog-api-key': '', authorization: `Bearer ${ALPHA_KEY}` } });
    expect(res.status).toBe(200);
  });

  it('honours systemInstruction, stopSequences and maxOutputTokens', async () => {
    const stop = await post({ ...base, generationConfig: { stopSequences: ['answer'] } });
    expect(stop.body.candidates[0]).toMatchObject({ finishReason: 'STOP', content: { parts: [{ text: 'Simulated ' }] } });
    const cut = await post({ ...base, systemInstruction: { parts: [{ text: 'Be brief.' }] }, generationConfig: { maxOutputTokens: 2 } });
    expect(cut.body.candidates[0].finishReason).toBe('MAX_TOKENS');
    expect(cut.body.usageMetadata).toMatchObject({ promptTokenCount: 6, candidatesTokenCount: 2 });
  });

  it('returns thought parts and thoughtsTokenCount when thoughts are asked for', async () => {
    const res = await post({ ...base, generationConfig: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } } });
    const parts = res.body.candidates[0].content.parts;
    expect(parts[0]).toEqual({ text: expect.any(String), thought: true, thoughtSignature: expect.any(String) });
    expect(parts[1].thought).toBeUndefined();
    const u = res.body.usageMetadata;
    expect(u.thoughtsTokenCount).toBeGreaterThan(0);
    expect(u.totalTokenCount).toBe(u.promptTokenCount + u.candidatesTokenCount + u.thoughtsTokenCount);
  });

  it('writes a usage row in the generateContent format', async () => {
    const res = await post(base);
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
    expect(row).toMatchObject({ format: 'gemini-content', model: 'sim-chat', status: 'ok', input_tokens: 4 });
  });

  it('leaves other verbs on the same prefix to other routers', async () => {
    const res = await post(base, { verb: 'generateAnswer' });
    expectGoogleError(res, 404, 'NOT_FOUND', 'route_not_found');
  });
});

describe('errors in the Google shape', () => {
  it('missing key → 401 UNAUTHENTICATED', async () => {
    expectGoogleError(await post(base, { headers: { 'x-goog-api-key': '' } }), 401, 'UNAUTHENTICATED', 'missing_api_key');
  });

  it('unknown x-goog-api-key → 401', async () => {
    expectGoogleError(await post(base, { headers: { 'x-goog-api-key': 'sk-unknown-9999' } }), 401, 'UNAUTHENTICATED', 'invalid_api_key');
  });

  it('a model outside the key group → 503 PERMISSION_DENIED, not an outage', async () => {
    expectGoogleError(await post(base, { model: 'sim-chat-plain' }), 503, 'PERMISSION_DENIED', 'model_not_in_group', 'model');
    expectGoogleError(
      await post(base, { model: 'sim-chat-plain', verb: 'streamGenerateContent', query: '?alt=sse' }),
      503,
      'PERMISSION_DENIED',
      'model_not_in_group',
    );
  });

  it('an image model answers with inlineData image parts (generate, stream, and edit with an input image)', async () => {
    const res = await post({ contents: [{ role: 'user', parts: [{ text: 'a red square' }] }] }, { model: 'sim-image' });
    expect(res.status).toBe(200);
    const part = res.body.candidates[0].content.parts[0];
    expect(part.inlineData.mimeType).toBe('image/png');
    const png = Buffer.from(part.inlineData.data, 'base64');
    expect(probeImage(png)).toMatchObject({ mediaType: 'image/png', width: 1024, height: 1024 });
    expect(res.body.candidates[0].finishReason).toBe('STOP');

    const streamed = await post(
      { contents: [{ role: 'user', parts: [{ text: 'a red square' }] }] },
      { model: 'sim-image', verb: 'streamGenerateContent', query: '?alt=sse' },
    );
    expect(streamed.status).toBe(200);
    expect(dataEvents(streamed.text)[0].candidates[0].content.parts[0].inlineData.mimeType).toBe('image/png');

    const edit = await post(
      {
        contents: [
          { role: 'user', parts: [{ text: 'make it blue' }, { inlineData: { mimeType: 'image/png', data: png.toString('base64') } }] },
        ],
      },
      { model: 'sim-image' },
    );
    expect(edit.status).toBe(200);
    expect(edit.body.candidates[0].content.parts[0].inlineData.data).not.toBe(part.inlineData.data);
  });

  it('an image model refuses input that is not an image', async () => {
    const res = await post(
      { contents: [{ role: 'user', parts: [{ text: 'x' }, { inlineData: { mimeType: 'image/png', data: 'bm90IGFuIGltYWdl' } }] }] },
      { model: 'sim-image' },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.status).toBe('INVALID_ARGUMENT');
  });

  it('a video model → 400', async () => {
    expectGoogleError(await post(base, { model: 'sim-video-2.0' }), 400, 'INVALID_ARGUMENT', 'model_kind_mismatch');
  });

  it('invalid JSON → 400, never 500', async () => {
    const res = await request(gw.app)
      .post('/v1beta/models/sim-chat:generateContent')
      .set('x-goog-api-key', ALPHA_KEY)
      .set('content-type', 'application/json')
      .send('{"contents":');
    expectGoogleError(res, 400, 'INVALID_ARGUMENT', 'invalid_json');
  });

  it('an upstream failure before the first token is a plain HTTP error, streamed or not', async () => {
    const failing = { contents: [{ role: 'user', parts: [{ text: 'please [sim:fail]' }] }] };
    expectGoogleError(await post(failing), 502, 'INTERNAL', 'simulated_failure');
    expectGoogleError(await post(failing, { verb: 'streamGenerateContent', query: '?alt=sse' }), 502, 'INTERNAL', 'simulated_failure');
  });

  it('thinking on a model that cannot think → 400', async () => {
    const res = await post(
      { ...base, generationConfig: { thinkingConfig: { thinkingBudget: 512 } } },
      { model: 'sim-chat-plain', headers: { 'x-goog-api-key': BETA_KEY } },
    );
    expectGoogleError(res, 400, 'INVALID_ARGUMENT', 'unsupported_reasoning_effort', 'generationConfig.thinkingConfig');
  });
});

describe('range rules: one accepted and one refused value per field', () => {
  const gen = (generationConfig: object) => ({ generationConfig });
  const tools = [{ functionDeclarations: [weather] }];
  const cases: Array<[string, object, object, string]> = [
    ['temperature', gen({ temperature: 2 }), gen({ temperature: 2.1 }), 'generationConfig.temperature'],
    ['topP', gen({ topP: 1 }), gen({ topP: 1.5 }), 'generationConfig.topP'],
    ['topK', gen({ topK: 1 }), gen({ topK: 0 }), 'generationConfig.topK'],
    ['candidateCount', gen({ candidateCount: 1 }), gen({ candidateCount: 2 }), 'generationConfig.candidateCount'],
    ['candidateCount (minimum)', gen({ candidateCount: 1 }), gen({ candidateCount: 0 }), 'generationConfig.candidateCount'],
    ['maxOutputTokens', gen({ maxOutputTokens: 1 }), gen({ maxOutputTokens: 0 }), 'generationConfig.maxOutputTokens'],
    [
      'stopSequences',
      gen({ stopSequences: ['a', 'b', 'c', 'd', 'e'] }),
      gen({ stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'] }),
      'generationConfig.stopSequences',
    ],
    ['seed', gen({ seed: 42 }), gen({ seed: 4.2 }), 'generationConfig.seed'],
    ['presencePenalty', gen({ presencePenalty: -2 }), gen({ presencePenalty: -2.5 }), 'generationConfig.presencePenalty'],
    ['frequencyPenalty', gen({ frequencyPenalty: 2 }), gen({ frequencyPenalty: 3 }), 'generationConfig.frequencyPenalty'],
    [
      'responseMimeType',
      gen({ responseMimeType: 'application/json' }),
      gen({ responseMimeType: 'text/html' }),
      'generationConfig.responseMimeType',
    ],
    [
      'responseSchema',
      gen({ responseMimeType: 'application/json', responseSchema: { type: 'OBJECT' } }),
      gen({ responseSchema: { type: 'OBJECT' } }),
      'generationConfig.responseMimeType',
    ],
    [
      'responseModalities',
      gen({ responseModalities: ['TEXT'] }),
      gen({ responseModalities: ['IMAGE'] }),
      'generationConfig.responseModalities',
    ],
    [
      'thinkingConfig.thinkingBudget',
      gen({ thinkingConfig: { thinkingBudget: -1 } }),
      gen({ thinkingConfig: { thinkingBudget: -2 } }),
      'generationConfig.thinkingConfig.thinkingBudget',
    ],
    [
      'thinkingConfig.thinkingLevel',
      gen({ thinkingConfig: { thinkingLevel: 'LOW' } }),
      gen({ thinkingConfig: { thinkingLevel: 'ULTRA' } }),
      'generationConfig.thinkingConfig.thinkingLevel',
    ],
    [
      'thinkingConfig.includeThoughts',
      gen({ thinkingConfig: { includeThoughts: true } }),
      gen({ thinkingConfig: { includeThoughts: 'yes' } }),
      'generationConfig.thinkingConfig.includeThoughts',
    ],
    ['contents', {}, { contents: [] }, 'contents'],
    [
      'systemInstruction',
      { systemInstruction: { parts: [{ text: 'Be brief.' }] } },
      { systemInstruction: 'Be brief.' },
      'systemInstruction',
    ],
    [
      'systemInstruction parts',
      { systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }] } },
      { systemInstruction: { parts: [{ functionCall: { name: 'f' } }] } },
      'systemInstruction.parts[0].functionCall',
    ],
    ['contents[].parts', {}, { contents: [{ role: 'user' }] }, 'contents[0].parts'],
    ['contents[].role', {}, { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
    [
      'inlineData',
      {},
      { contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png' } }] }] },
      'contents[0].parts[0].inlineData.data',
    ],
    [
      'safetySettings',
      { safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }] },
      { safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' }] },
      'safetySettings[0].threshold',
    ],
    [
      'toolConfig mode',
      { tools, toolConfig: { functionCallingConfig: { mode: 'ANY' } } },
      { tools, toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } },
      'toolConfig.functionCallingConfig.mode',
    ],
    [
      'functionDeclarations name',
      { tools },
      { tools: [{ functionDeclarations: [{ ...weather, name: 'has space' }] }] },
      'tools[0].functionDeclarations[0].name',
    ],
    ['tools kind', { tools }, { tools: [{ fileSearch: {} }] }, 'tools[0].fileSearch'],
  ];

  it.each(cases)('%s', async (_name, ok, bad, param) => {
    const accepted = await post({ ...base, ...ok });
    expect(accepted.status).toBe(200);
    expectGoogleError(await post({ ...base, ...bad }), 400, 'INVALID_ARGUMENT', undefined, param);
  });
});

describe('streamGenerateContent', () => {
  it('golden stream with alt=sse: bare data events, text concatenating to the non-streamed text', async () => {
    const plain = await post(base);
    const res = await post(base, { verb: 'streamGenerateContent', query: '?alt=sse' }).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.text).not.toContain('[DONE]');
    const chunks = dataEvents(res.text);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks)
      expect(c).toMatchObject({
        modelVersion: 'sim-chat',
        responseId: chunks[0].responseId,
        candidates: [{ index: 0, content: { role: 'model' } }],
      });
    expect(chunks.slice(0, -1).every((c) => c.candidates[0].finishReason === undefined && c.usageMetadata === undefined)).toBe(true);
    expect(chunks.map(textOf).join('')).toBe(textOf(plain.body));
    const last = chunks[chunks.length - 1];
    expect(last.candidates[0].finishReason).toBe('STOP');
    expect(last.usageMetadata).toEqual(plain.body.usageMetadata);
  });

  it('without alt=sse answers one JSON array of the same chunks', async () => {
    const plain = await post(base);
    const res = await post(base, { verb: 'streamGenerateContent' });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map(textOf).join('')).toBe(textOf(plain.body));
    expect(res.body[res.body.length - 1].candidates[0].finishReason).toBe('STOP');
  });

  it('streams thoughts as thought parts when asked', async () => {
    const body = { ...base, generationConfig: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } } };
    const plain = await post(body);
    const chunks = dataEvents((await post(body, { verb: 'streamGenerateContent', query: '?alt=sse' }).buffer(true)).text);
    const thoughts = chunks
      .flatMap((c) => c.candidates[0].content.parts)
      .filter((p: any) => p.thought)
      .map((p: any) => p.text)
      .join('');
    expect(thoughts).toBe(plain.body.candidates[0].content.parts[0].text);
    expect(chunks.map(textOf).join('')).toBe(textOf(plain.body));
  });
});

describe('function calling round trip', () => {
  const ask = {
    contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }],
    tools: [{ functionDeclarations: [weather] }],
    toolConfig: { functionCallingConfig: { mode: 'ANY' } },
  };

  it('emits a functionCall whose args validate, streamed the same way, then answers from the functionResponse', async () => {
    const first = await post(ask);
    expect(first.status).toBe(200);
    const call = first.body.candidates[0].content.parts[0].functionCall;
    expect(call).toEqual({ id: expect.any(String), name: 'get_weather', args: { city: expect.any(String), days: expect.any(Number) } });
    expect(Number.isInteger(call.args.days) && call.args.days >= 1 && call.args.days <= 7).toBe(true);
    expect(first.body.candidates[0].finishReason).toBe('STOP');

    const chunks = dataEvents((await post(ask, { verb: 'streamGenerateContent', query: '?alt=sse' }).buffer(true)).text);
    const streamed = chunks.flatMap((c) => c.candidates[0].content.parts).filter((p: any) => p.functionCall);
    expect(streamed).toEqual([{ functionCall: call }]);

    const followUp = await post({
      contents: [
        ...ask.contents,
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: call.args } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { forecast: 'sunny' } } }] },
      ],
      tools: ask.tools,
    });
    expect(followUp.status).toBe(200);
    expect(textOf(followUp.body)).toContain('get_weather');
    expect(textOf(followUp.body)).toContain('sunny');
  });
});

describe('mid-stream failure and disconnect (scripted upstream)', () => {
  const headers = { 'x-goog-api-key': 'any' };
  const hello: TextStreamPart = { type: 'text-delta', delta: 'Hello' };

  it('an upstream error after the first token becomes a data event carrying {error}', async () => {
    const { port } = scriptedTextPort([hello], 'fail');
    const res = await request(scriptedTextApp(geminiContentFormat, port))
      .post('/v1beta/models/scripted:streamGenerateContent?alt=sse')
      .set(headers)
      .send(base)
      .buffer(true);
    expect(res.status).toBe(200);
    const chunks = dataEvents(res.text);
    expect(chunks).toHaveLength(2);
    expect(textOf(chunks[0])).toBe('Hello');
    expect(chunks[1]).toEqual({
      error: {
        code: 503,
        message: 'The upstream dropped the stream.',
        status: 'UNAVAILABLE',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'upstream_dropped', domain: 'gateway' }],
      },
    });
  });

  it('a client that goes away stops the upstream generation', async () => {
    const { port, seen } = scriptedTextPort([hello], 'hang');
    const app = scriptedTextApp(geminiContentFormat, port);
    const first = await streamThenDisconnect(app, '/v1beta/models/scripted:streamGenerateContent?alt=sse', headers, base);
    expect(first).toMatch(/^data: /);
    await eventually(() => seen.finished);
    expect(seen.aborted).toBe(true);
  });
});
