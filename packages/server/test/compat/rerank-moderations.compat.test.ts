import OpenAI from 'openai';
import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

// ai 7 and @ai-sdk/cohere are ESM only: loaded with import(), which this folder's tsconfig keeps (jest.config.ts).
let ai: typeof import('ai');
let cohere: ReturnType<typeof import('@ai-sdk/cohere').createCohere>;
let openai: OpenAI;
let gw: TestGateway;

beforeAll(async () => {
  ai = await import('ai');
  const { createCohere } = await import('@ai-sdk/cohere');
  gw = await startZeroConfigGateway();
  // the base URL as the provider takes it: it posts `${baseURL}/rerank`
  cohere = createCohere({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v2` });
  openai = new OpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});
afterAll(() => gw.stop());

const DOCS = ['Sunny and warm in Madrid today.', 'The stock market fell sharply.', 'Rain is expected in London tomorrow.'];

describe('AI SDK rerank with @ai-sdk/cohere at <gateway>/v2', () => {
  it('ranks the document that shares the query words first', async () => {
    const result = await ai.rerank({ model: cohere.reranking('rerank-v3.5'), documents: DOCS, query: 'rain in London', maxRetries: 0 });
    expect(result.ranking[0]!.originalIndex).toBe(2);
    expect(result.rerankedDocuments[0]).toBe(DOCS[2]);
    expect(result.ranking).toHaveLength(3);
    for (const r of result.ranking) expect(r.score).toBeGreaterThan(0);
  });

  it('honours topN and object documents (sent as JSON text)', async () => {
    const docs = [
      { city: 'Madrid', weather: 'sunny' },
      { city: 'London', weather: 'rain' },
    ];
    const result = await ai.rerank({
      model: cohere.reranking('rerank-v3.5'),
      documents: docs,
      query: 'London rain',
      topN: 1,
      maxRetries: 0,
    });
    expect(result.ranking).toHaveLength(1);
    expect(result.rerankedDocuments[0]).toEqual(docs[1]);
  });

  it("surfaces the gateway's Cohere-shaped error message", async () => {
    const err = await ai
      .rerank({ model: cohere.reranking('no-such-reranker'), documents: DOCS, query: 'q', maxRetries: 0 })
      .catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/no-such-reranker/);
  });
});

describe('openai SDK moderations.create', () => {
  it('flags the simulator words per input, with the 13 categories', async () => {
    const res = await openai.moderations.create({ model: 'omni-moderation-latest', input: ['kill', 'idiot', 'suicide', 'hello'] });
    expect(res.results.map((r) => r.flagged)).toEqual([true, true, true, false]);
    expect(res.results[0]!.categories.violence).toBe(true);
    expect(res.results[1]!.categories.harassment).toBe(true);
    expect(res.results[2]!.categories['self-harm']).toBe(true);
    expect(Object.keys(res.results[3]!.category_scores)).toHaveLength(13);
  });

  it('takes text and image parts as one input, and the default model', async () => {
    const res = await openai.moderations.create({
      model: 'omni-moderation-latest',
      input: [
        { type: 'text', text: 'what is in this picture?' },
        { type: 'image_url', image_url: { url: 'https://example.com/picture.png' } },
      ],
    });
    expect(res.results).toHaveLength(1);
    expect(res.results[0]!.category_applied_input_types.violence).toEqual(['text', 'image']);
    const plain = await openai.moderations.create({ input: 'a calm sentence' });
    expect(plain.model).toBe('omni-moderation-latest');
  });
});

describe('openai SDK: in-band moderation on chat completions and Responses (2.3.0), run by the gateway', () => {
  it('chat.completions.create returns the verdicts of the input and the output; block withholds a flagged input', async () => {
    const scored = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'I will kill you' }],
      moderation: { model: 'omni-moderation-latest' },
    });
    const input = scored.moderation?.input;
    expect(input?.type).toBe('moderation_results');
    if (input?.type !== 'moderation_results') throw new Error('no results');
    expect(input.results[0]!.flagged).toBe(true);
    expect(input.results[0]!.categories.violence).toBe(true);

    const blocked = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'I will kill you' }],
      moderation: { model: 'omni-moderation-latest', policy: { input: { mode: 'block' } } },
    });
    expect(blocked.choices[0]!.finish_reason).toBe('content_filter');
    expect(blocked.moderation?.output).toMatchObject({ type: 'error', code: 'input_blocked' });
  });

  it('a streamed chat carries the verdicts on a chunk the SDK yields', async () => {
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Tell me about gardens' }],
      moderation: { model: 'omni-moderation-latest' },
      stream: true,
    });
    const verdicts = [];
    for await (const chunk of stream) if (chunk.moderation) verdicts.push(chunk.moderation);
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]!.output).toMatchObject({ type: 'moderation_results' });
  });

  it('responses.create returns one moderation_result a side', async () => {
    const res = await openai.responses.create({ model: 'gpt-4o', input: 'you idiot', moderation: { model: 'omni-moderation-latest' } });
    expect(res.moderation?.input).toMatchObject({ type: 'moderation_result', flagged: true });
  });
});
