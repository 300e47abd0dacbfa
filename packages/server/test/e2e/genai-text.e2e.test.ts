import { ApiError, FunctionCallingConfigMode, GoogleGenAI, Type } from '@google/genai';
import { ALPHA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';

let gw: TestGateway;
let ai: GoogleGenAI;
/**
 * Jest runs each file in a vm context whose globalThis lacks Node's undici dispatcher, which the SDK reaches for
 * unless it is handed a fetch. Handing it the same global fetch changes nothing on the wire.
 */
const client = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gw.url, fetch: (url, init) => fetch(url, init) } });
beforeAll(async () => {
  gw = await startTestGateway();
  ai = client(ALPHA_KEY);
});
afterAll(async () => {
  await gw.stop();
});

const weather = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
};

describe('@google/genai against the gateway', () => {
  it('countTokens counts what generateContent then reports as prompt tokens', async () => {
    const contents = 'How many words are in this prompt?';
    const counted = await ai.models.countTokens({ model: 'sim-chat', contents });
    const generated = await ai.models.generateContent({ model: 'sim-chat', contents });
    expect(counted.totalTokens).toBe(7);
    expect(counted.totalTokens).toBe(generated.usageMetadata?.promptTokenCount);
    await expect(ai.models.countTokens({ model: 'sim-video-2.0', contents })).rejects.toBeInstanceOf(ApiError);
  });

  it('generateContent returns text, usage, modelVersion and responseId', async () => {
    const r = await ai.models.generateContent({
      model: 'sim-chat',
      contents: 'Hello from genai',
      config: { temperature: 0.3, systemInstruction: 'Be brief.' },
    });
    expect(r.text).toContain('Hello from genai');
    expect(r.candidates?.[0]!.finishReason).toBe('STOP');
    expect(r.usageMetadata).toMatchObject({ promptTokenCount: 5, totalTokenCount: expect.any(Number) });
    expect(r.modelVersion).toBe('sim-chat');
    expect(r.responseId).toEqual(expect.any(String));
  });

  it('generateContentStream yields chunks whose text concatenates to the non-streamed text', async () => {
    const params = { model: 'sim-chat', contents: 'Stream this please' };
    const plain = await ai.models.generateContent(params);
    let text = '';
    let chunks = 0;
    let last;
    for await (const chunk of await ai.models.generateContentStream(params)) {
      text += chunk.text ?? '';
      chunks++;
      last = chunk;
    }
    expect(chunks).toBeGreaterThan(1);
    expect(text).toBe(plain.text);
    expect(last!.candidates?.[0]!.finishReason).toBe('STOP');
    expect(last!.usageMetadata).toEqual(plain.usageMetadata);
  });

  it('thinking: thought parts and thoughtsTokenCount with includeThoughts', async () => {
    const r = await ai.models.generateContent({
      model: 'sim-chat',
      contents: 'Think first',
      config: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
    });
    expect(r.candidates?.[0]!.content?.parts?.[0]!.thought).toBe(true);
    expect(r.usageMetadata?.thoughtsTokenCount).toBeGreaterThan(0);
    expect(r.text).toContain('Think first');
  });

  it('function calling: a functionCall, then an answer from the functionResponse', async () => {
    const config = {
      tools: [{ functionDeclarations: [weather] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
    };
    const first = await ai.models.generateContent({ model: 'sim-chat', contents: 'Weather in Paris?', config });
    const call = first.functionCalls?.[0];
    expect(call?.name).toBe('get_weather');
    expect(typeof call?.args?.city).toBe('string');

    const answer = await ai.models.generateContent({
      model: 'sim-chat',
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: call }] },
        { role: 'user', parts: [{ functionResponse: { id: call?.id, name: 'get_weather', response: { forecast: 'sunny' } } }] },
      ],
      config: { tools: config.tools },
    });
    expect(answer.text).toContain('sunny');
  });

  it('errors surface as ApiError with the HTTP status', async () => {
    const wrong = client('sk-unknown-9999');
    const unauth = await wrong.models.generateContent({ model: 'sim-chat', contents: 'x' }).catch((e) => e);
    expect(unauth).toBeInstanceOf(ApiError);
    expect(unauth.status).toBe(401);
    expect(JSON.parse(unauth.message).error.status).toBe('UNAUTHENTICATED');
    const outside = await ai.models.generateContentStream({ model: 'sim-video-2.5', contents: 'x' }).catch((e) => e);
    expect(outside).toBeInstanceOf(ApiError);
    expect(outside.status).toBe(503);
  });
});
