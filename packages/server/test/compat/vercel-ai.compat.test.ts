import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

// ai 7 and @ai-sdk/* are ESM only: loaded with import(), which this folder's tsconfig keeps (jest.config.ts).
let ai: typeof import('ai');
let openaiSdk: typeof import('@ai-sdk/openai');
let googleSdk: typeof import('@ai-sdk/google');
let z: typeof import('zod').z;

let gw: TestGateway;
let models: Record<string, () => Parameters<typeof ai.generateText>[0]['model']>;
let weather: ReturnType<typeof makeWeather>;
let person: ReturnType<typeof makePerson>;
const makePerson = (zod: typeof z) =>
  zod.object({ name: zod.string(), age: zod.number().int().min(0).max(120), tags: zod.array(zod.string()) });
const makeWeather = () =>
  ai.tool({
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']) }),
    execute: async ({ city, unit }) => ({ city, unit, degrees: 21 }),
  });
beforeAll(async () => {
  // one at a time: jest's ESM loader fails on concurrent imports that share dependencies ("not in cache")
  ai = await import('ai');
  openaiSdk = await import('@ai-sdk/openai');
  googleSdk = await import('@ai-sdk/google');
  ({ z } = await import('zod'));
  const { createAnthropic } = await import('@ai-sdk/anthropic');
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  gw = await startZeroConfigGateway();
  const openai = openaiSdk.createOpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1` });
  const anthropic = createAnthropic({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1` });
  const google = googleSdk.createGoogleGenerativeAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1beta` });
  // structured outputs on: without it the provider sends json_object and puts the schema in the prompt text
  const compatible = createOpenAICompatible({
    name: 'gateway',
    apiKey: COMPAT_KEY,
    baseURL: `${gw.url}/v1`,
    supportsStructuredOutputs: true,
  });
  models = {
    'openai responses': () => openai.responses('gpt-5'),
    // a non-reasoning id: the provider then sends earlier output as item_reference items
    'openai responses (item references)': () => openai.responses('gpt-4.1'),
    'openai chat': () => openai.chat('gpt-4.1'),
    anthropic: () => anthropic('claude-sonnet-4-5'),
    google: () => google('gemini-2.5-flash'),
    'openai-compatible': () => compatible.chatModel('sim-chat'),
  };
  weather = makeWeather();
  person = makePerson(z);
});
afterAll(() => gw.stop());

const PROVIDERS = ['openai responses', 'openai responses (item references)', 'openai chat', 'anthropic', 'google', 'openai-compatible'];

describe.each(PROVIDERS)('Vercel AI SDK, %s', (name) => {
  it('generateText', async () => {
    const r = await ai.generateText({ model: models[name]!(), prompt: 'Hello there', maxRetries: 0 });
    expect(r.text).toContain('Hello there');
    expect(r.usage.inputTokens).toBeGreaterThan(0);
  });

  it('streamText: the streamed text is the answer', async () => {
    const r = ai.streamText({ model: models[name]!(), prompt: 'Stream to me', maxRetries: 0 });
    let streamed = '';
    for await (const delta of r.textStream) streamed += delta;
    expect(streamed).toContain('Stream to me');
    expect(await r.text).toBe(streamed);
  });

  it('a multi-step tool loop runs the tool and answers with its result', async () => {
    const r = await ai.generateText({
      model: models[name]!(),
      prompt: 'Use weather for Paris',
      tools: { weather },
      stopWhen: ai.stepCountIs(3),
      maxRetries: 0,
    });
    expect(r.steps.length).toBe(2);
    const call = r.steps[0]!.toolCalls[0];
    expect(call!.toolName).toBe('weather');
    expect(['celsius', 'fahrenheit']).toContain((call!.input as { unit: string }).unit);
    expect(r.text).toContain('21');
  });

  it('multi-turn: a second turn carries the first answer back', async () => {
    const first = await ai.generateText({ model: models[name]!(), prompt: 'First question', maxRetries: 0 });
    const second = await ai.generateText({
      model: models[name]!(),
      messages: [{ role: 'user', content: 'First question' }, ...first.response.messages, { role: 'user', content: 'Second question' }],
      maxRetries: 0,
    });
    expect(second.text).toContain('Second question');
  });

  it('structured output: generateObject and Output.object validate against the schema', async () => {
    const obj = await ai.generateObject({ model: models[name]!(), schema: person, prompt: 'Invent a person', maxRetries: 0 });
    expect(person.safeParse(obj.object).success).toBe(true);
    const out = await ai.generateText({
      model: models[name]!(),
      output: ai.Output.object({ schema: person }),
      prompt: 'Invent another person',
      maxRetries: 0,
    });
    expect(person.safeParse(out.output).success).toBe(true);
  });
});

describe('Vercel AI SDK images', () => {
  it('openai.image generates a PNG', async () => {
    const openai = openaiSdk.createOpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1` });
    const r = await ai.generateImage({ model: openai.image('gpt-image-1'), prompt: 'a red square', size: '1024x1024', maxRetries: 0 });
    expect(Buffer.from(r.image.uint8Array.subarray(1, 4)).toString()).toBe('PNG');
  });
});

describe('Vercel AI SDK video', () => {
  it('google.video: predictLongRunning, polling, then the download link on the gateway (PUBLIC_BASE_URL over http)', async () => {
    // The zero-config gateway answers on plain http; the operation's uri must be fetchable as given.
    gw.env.publicBaseUrl = gw.url;
    await gw.startBackground(); // the video worker
    const downloaded: string[] = [];
    const google = googleSdk.createGoogleGenerativeAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1beta` });
    const r = await ai.experimental_generateVideo({
      model: google.video('veo-3.1-generate-preview'),
      prompt: 'a cat on a piano',
      duration: 4,
      aspectRatio: '16:9',
      providerOptions: { google: { pollIntervalMs: 200, pollTimeoutMs: 20000 } },
      maxRetries: 0,
      // The SDK's own download refuses loopback and private addresses (its SSRF guard), so a local gateway needs a
      // download function; the URL it is handed is the operation's uri with the SDK's `?key=` appended.
      download: async ({ url }) => {
        downloaded.push(url.toString());
        const res = await fetch(url);
        if (!res.ok) throw new Error(`download: ${res.status}`);
        return { data: new Uint8Array(await res.arrayBuffer()), mediaType: res.headers.get('content-type') ?? undefined };
      },
    });
    expect(downloaded).toEqual([expect.stringMatching(new RegExp(`^${gw.url}/v1beta/files/[a-z0-9]+:download\\?alt=media&key=`))]);
    expect(r.video.mediaType).toBe('video/mp4');
    // an MP4 begins with an ftyp box
    expect(Buffer.from(r.video.uint8Array.subarray(4, 8)).toString()).toBe('ftyp');
  });
});
