import {
  generateText,
  streamText,
  generateObject,
  stepCountIs,
  tool,
  Output,
  experimental_generateImage as generateImage,
  experimental_generateVideo as generateVideo,
} from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { z } from 'zod';
import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

let gw: TestGateway;
let models: Record<string, () => Parameters<typeof generateText>[0]['model']>;
beforeAll(async () => {
  gw = await startZeroConfigGateway();
  const openai = createOpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1` });
  const anthropic = createAnthropic({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1` });
  const google = createGoogleGenerativeAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1beta` });
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
});
afterAll(() => gw.stop());

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']) }),
  execute: async ({ city, unit }) => ({ city, unit, degrees: 21 }),
});
const person = z.object({ name: z.string(), age: z.number().int().min(0).max(120), tags: z.array(z.string()) });
const PROVIDERS = ['openai responses', 'openai responses (item references)', 'openai chat', 'anthropic', 'google', 'openai-compatible'];

describe.each(PROVIDERS)('Vercel AI SDK, %s', (name) => {
  it('generateText', async () => {
    const r = await generateText({ model: models[name](), prompt: 'Hello there', maxRetries: 0 });
    expect(r.text).toContain('Hello there');
    expect(r.usage.inputTokens).toBeGreaterThan(0);
  });

  it('streamText: the streamed text is the answer', async () => {
    const r = streamText({ model: models[name](), prompt: 'Stream to me', maxRetries: 0 });
    let streamed = '';
    for await (const delta of r.textStream) streamed += delta;
    expect(streamed).toContain('Stream to me');
    expect(await r.text).toBe(streamed);
  });

  it('a multi-step tool loop runs the tool and answers with its result', async () => {
    const r = await generateText({
      model: models[name](),
      prompt: 'Use weather for Paris',
      tools: { weather },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(r.steps.length).toBe(2);
    const call = r.steps[0].toolCalls[0];
    expect(call.toolName).toBe('weather');
    expect(['celsius', 'fahrenheit']).toContain((call.input as { unit: string }).unit);
    expect(r.text).toContain('21');
  });

  it('multi-turn: a second turn carries the first answer back', async () => {
    const first = await generateText({ model: models[name](), prompt: 'First question', maxRetries: 0 });
    const second = await generateText({
      model: models[name](),
      messages: [{ role: 'user', content: 'First question' }, ...first.response.messages, { role: 'user', content: 'Second question' }],
      maxRetries: 0,
    });
    expect(second.text).toContain('Second question');
  });

  it('structured output: generateObject and Output.object validate against the schema', async () => {
    const obj = await generateObject({ model: models[name](), schema: person, prompt: 'Invent a person', maxRetries: 0 });
    expect(person.safeParse(obj.object).success).toBe(true);
    const out = await generateText({
      model: models[name](),
      output: Output.object({ schema: person }),
      prompt: 'Invent another person',
      maxRetries: 0,
    });
    expect(person.safeParse(out.output).success).toBe(true);
  });
});

describe('Vercel AI SDK images', () => {
  it('openai.image generates a PNG', async () => {
    const openai = createOpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1` });
    const r = await generateImage({ model: openai.image('gpt-image-1'), prompt: 'a red square', size: '1024x1024', maxRetries: 0 });
    expect(Buffer.from(r.image.uint8Array.subarray(1, 4)).toString()).toBe('PNG');
  });
});

describe('Vercel AI SDK video', () => {
  it('google.video: predictLongRunning, polling, then the download link on the gateway (PUBLIC_BASE_URL over http)', async () => {
    // The zero-config gateway answers on plain http; the operation's uri must be fetchable as given.
    gw.env.publicBaseUrl = gw.url;
    await gw.startBackground(); // the video worker
    const downloaded: string[] = [];
    const google = createGoogleGenerativeAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1beta` });
    const r = await generateVideo({
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
