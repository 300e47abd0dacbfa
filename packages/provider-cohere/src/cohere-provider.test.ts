import { GatewayError } from '@gateway/provider-kit';
import { startFakeCohere, type FakeCohere } from '@gateway/provider-cohere/testing';
import { createCohereProvider } from './cohere-provider';

const ctx = () => ({ requestId: 'test-request', signal: new AbortController().signal });

describe('cohere provider against its fake upstream', () => {
  let fake: FakeCohere;
  let ports: ReturnType<typeof createCohereProvider>;
  beforeAll(async () => {
    fake = await startFakeCohere();
    ports = createCohereProvider({ baseUrl: fake.url, apiKey: fake.apiKey });
  });
  afterAll(async () => {
    ports.close();
    await fake.close();
  });

  it('reranks through /v2/rerank with top_n and max_tokens_per_doc, reading search units', async () => {
    const result = await ports.rerank!.rerank(
      {
        model: 'rerank-v3.5',
        query: 'capital of France',
        documents: ['Berlin is big', 'Paris is the capital of France'],
        topN: 1,
        maxTokensPerDoc: 512,
      },
      ctx(),
    );
    expect(result.results).toEqual([{ index: 1, relevanceScore: expect.any(Number) }]);
    expect(result.usage?.searchUnits).toBe(1);
    expect(result.upstreamRequestId).toBe('cohere-req-1');
    expect(fake.bodies('/v2/rerank').at(-1)).toEqual({
      model: 'rerank-v3.5',
      query: 'capital of France',
      documents: ['Berlin is big', 'Paris is the capital of France'],
      top_n: 1,
      max_tokens_per_doc: 512,
    });
  });

  it('embeds in batches of 96 with input_type from the task type, vectors in input order', async () => {
    const texts = Array.from({ length: 100 }, (_, i) => `text number ${i}`);
    const result = await ports.embedding!.embed(
      { model: 'embed-v4.0', inputs: texts, taskType: 'RETRIEVAL_QUERY', dimensions: 256 },
      ctx(),
    );
    expect(result.embeddings).toHaveLength(100);
    expect(result.embeddings[0]).toHaveLength(256);
    expect(result.usage).toEqual({ inputTokens: 300 });
    const bodies = fake.bodies('/v2/embed').slice(-2);
    expect(bodies.map((b) => (b.texts as string[]).length)).toEqual([96, 4]);
    expect(bodies[0]).toMatchObject({ input_type: 'search_query', embedding_types: ['float'], output_dimension: 256 });
    // the same text embeds the same way whichever batch it was in
    const again = await ports.embedding!.embed(
      { model: 'embed-v4.0', inputs: ['text number 99'], taskType: 'RETRIEVAL_QUERY', dimensions: 256 },
      ctx(),
    );
    expect(again.embeddings[0]).toEqual(result.embeddings[99]);
  });

  it('shortens a size Cohere cannot produce itself, renormalised', async () => {
    const result = await ports.embedding!.embed({ model: 'embed-v4.0', inputs: ['hello'], dimensions: 100 }, ctx());
    expect(fake.bodies('/v2/embed').at(-1)).not.toHaveProperty('output_dimension');
    expect(fake.bodies('/v2/embed').at(-1)).toMatchObject({ input_type: 'search_document' });
    expect(result.embeddings[0]).toHaveLength(100);
    expect(Math.hypot(...result.embeddings[0]!)).toBeCloseTo(1, 9);
  });

  it('refuses token arrays before calling, naming input', async () => {
    const before = fake.api.requests.length;
    await expect(ports.embedding!.embed({ model: 'embed-v4.0', inputs: [[1, 2, 3]] }, ctx())).rejects.toMatchObject({
      reason: 'invalid_request',
      param: 'input',
    });
    expect(fake.api.requests.length).toBe(before);
  });

  it("maps Cohere's errors: its message on 400, a bad key as the gateway's credentials, 402 as quota", async () => {
    const err = await ports.rerank!.rerank({ model: 'm', query: 'q', documents: Array(1001).fill('d') }, ctx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ reason: 'invalid_request', message: 'invalid request: too many documents, at most 1000' });
    const wrongKey = createCohereProvider({ baseUrl: fake.url, apiKey: 'nope' });
    await expect(wrongKey.rerank!.rerank({ model: 'm', query: 'q', documents: ['d'] }, ctx())).rejects.toMatchObject({
      code: 'upstream_auth_failed',
    });
    wrongKey.close();
    fake.api.failNext('poll', 1, { status: 402, body: { message: 'Please add a payment method' } });
    await expect(ports.rerank!.rerank({ model: 'm', query: 'q', documents: ['d'] }, ctx())).rejects.toMatchObject({
      reason: 'upstream_unavailable',
    });
  });
});
