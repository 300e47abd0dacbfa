import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { GoogleGenerativeAIEmbeddings } from '@langchain/google-genai';
import { OpenAIEmbeddings } from '@langchain/openai';
import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

// ai 7 and @ai-sdk/* are ESM only: loaded with import(), which this folder's tsconfig keeps (jest.config.ts).
let ai: typeof import('ai');
let openaiProvider: ReturnType<typeof import('@ai-sdk/openai').createOpenAI>;
let googleProvider: ReturnType<typeof import('@ai-sdk/google').createGoogleGenerativeAI>;
let openai: OpenAI;
let genai: GoogleGenAI;
let gw: TestGateway;
const paths: string[] = [];
const openaiBodies: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  // one at a time: jest's ESM loader fails on concurrent imports that share dependencies ("not in cache")
  ai = await import('ai');
  const { createOpenAI } = await import('@ai-sdk/openai');
  const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
  gw = await startZeroConfigGateway();
  const recordingBodies: typeof fetch = (url, init) => {
    if (typeof init?.body === 'string') openaiBodies.push(JSON.parse(init.body) as Record<string, unknown>);
    return fetch(url, init);
  };
  openai = new OpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0, fetch: recordingBodies });
  openaiProvider = createOpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1` });
  googleProvider = createGoogleGenerativeAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1beta` });
  // Jest's vm context lacks Node's undici dispatcher: the SDK gets the global fetch, which also records each path.
  const recording: typeof fetch = (url, init) => {
    paths.push(new URL(url instanceof Request ? url.url : String(url)).pathname);
    return fetch(url, init);
  };
  genai = new GoogleGenAI({ apiKey: COMPAT_KEY, httpOptions: { baseUrl: gw.url, fetch: recording } });
});
afterAll(() => gw.stop());

const cosine = (a: number[], b: number[]) => {
  const dot = a.reduce((s, x, i) => s + x * b[i]!, 0);
  return dot / Math.sqrt(a.reduce((s, x) => s + x * x, 0) * b.reduce((s, x) => s + x * x, 0));
};
const CAT = 'A cat is sleeping on the warm mat';
const CATS = 'The cats slept on a mat in the sun';
const MONEY = 'Quarterly revenue grew by ten percent';

describe('openai SDK embeddings.create', () => {
  it('with its default (base64 on the wire, decoded by the SDK) gives the float vector', async () => {
    const b64 = await openai.embeddings.create({ model: 'text-embedding-3-small', input: [CAT, CATS, MONEY] });
    const float = await openai.embeddings.create({ model: 'text-embedding-3-small', input: CAT, encoding_format: 'float' });
    expect(openaiBodies[0]).toMatchObject({ encoding_format: 'base64' });
    expect(b64.data).toHaveLength(3);
    expect(b64.data[0]!.embedding).toHaveLength(1536);
    b64.data[0]!.embedding.forEach((x, i) => expect(x).toBeCloseTo(float.data[0]!.embedding[i]!, 6));
    const [cat, cats, money] = b64.data.map((d) => d.embedding);
    expect(cosine(cat!, cats!)).toBeGreaterThan(cosine(cat!, money!) + 0.2);
    expect(b64.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('honours dimensions and token arrays', async () => {
    const res = await openai.embeddings.create({
      model: 'text-embedding-3-large',
      input: [
        [1, 2, 3],
        [4, 5],
      ],
      dimensions: 256,
    });
    expect(res.data.map((d) => d.embedding.length)).toEqual([256, 256]);
  });

  it("surfaces the gateway's 400 as a BadRequestError naming the field", async () => {
    const err = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['ok', ''] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('input');
  });
});

describe('AI SDK embed and embedMany', () => {
  it('@ai-sdk/openai', async () => {
    const model = openaiProvider.embedding('text-embedding-3-small');
    const one = await ai.embed({ model, value: CAT, maxRetries: 0 });
    expect(one.embedding).toHaveLength(1536);
    const many = await ai.embedMany({ model, values: [CAT, CATS, MONEY], maxRetries: 0 });
    expect(many.embeddings).toHaveLength(3);
    expect(ai.cosineSimilarity(many.embeddings[0]!, many.embeddings[1]!)).toBeGreaterThan(
      ai.cosineSimilarity(many.embeddings[0]!, many.embeddings[2]!) + 0.2,
    );
    expect(many.usage.tokens).toBeGreaterThan(0);
  });

  it('@ai-sdk/google, with outputDimensionality', async () => {
    const model = googleProvider.embedding('gemini-embedding-001');
    const many = await ai.embedMany({
      model,
      values: [CAT, MONEY],
      providerOptions: { google: { outputDimensionality: 768, taskType: 'SEMANTIC_SIMILARITY' } },
      maxRetries: 0,
    });
    expect(many.embeddings.map((e) => e.length)).toEqual([768, 768]);
    const one = await ai.embed({ model, value: CATS, maxRetries: 0 });
    expect(one.embedding).toHaveLength(1536);
  });
});

describe('LangChain OpenAIEmbeddings', () => {
  it('embedQuery and embedDocuments', async () => {
    const embeddings = new OpenAIEmbeddings({
      model: 'text-embedding-3-small',
      apiKey: COMPAT_KEY,
      configuration: { baseURL: `${gw.url}/v1` },
      maxRetries: 0,
    });
    const query = await embeddings.embedQuery(CAT);
    const docs = await embeddings.embedDocuments([CATS, MONEY]);
    expect(query).toHaveLength(1536);
    expect(docs).toHaveLength(2);
    expect(cosine(query, docs[0]!)).toBeGreaterThan(cosine(query, docs[1]!) + 0.2);
  });
});

describe('LangChain GoogleGenerativeAIEmbeddings', () => {
  // the legacy Gemini SDK under it: embedQuery calls :embedContent, embedDocuments :batchEmbedContents, and a
  // refused batch silently becomes empty vectors, so every vector's length is checked
  it('embedQuery and embedDocuments', async () => {
    const embeddings = new GoogleGenerativeAIEmbeddings({ model: 'gemini-embedding-001', apiKey: COMPAT_KEY, baseUrl: gw.url });
    const query = await embeddings.embedQuery(CAT);
    const docs = await embeddings.embedDocuments([CATS, MONEY]);
    expect(query).toHaveLength(1536);
    expect(docs.map((d) => d.length)).toEqual([1536, 1536]);
    expect(cosine(query, docs[0]!)).toBeGreaterThan(cosine(query, docs[1]!) + 0.2);
  });
});

describe('@google/genai models.embedContent', () => {
  it('calls :batchEmbedContents and answers each content in order', async () => {
    paths.length = 0;
    const res = await genai.models.embedContent({
      model: 'gemini-embedding-001',
      contents: [CAT, CATS, MONEY],
      config: { outputDimensionality: 512, taskType: 'RETRIEVAL_DOCUMENT' },
    });
    expect(paths).toEqual([expect.stringMatching(/^\/v1(beta)?\/models\/gemini-embedding-001:batchEmbedContents$/)]);
    const values = res.embeddings!.map((e) => e.values!);
    expect(values.map((v) => v.length)).toEqual([512, 512, 512]);
    expect(cosine(values[0]!, values[1]!)).toBeGreaterThan(cosine(values[0]!, values[2]!) + 0.2);
  });

  it('one text is one embedding', async () => {
    const res = await genai.models.embedContent({ model: 'text-embedding-004', contents: 'hello' });
    expect(res.embeddings).toHaveLength(1);
    expect(res.embeddings![0]!.values).toHaveLength(1536);
  });

  it("an unknown model is the SDK's 404", async () => {
    const err = await genai.models.embedContent({ model: 'no-such-embedder', contents: 'x' }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/404|not found/i);
  });
});
