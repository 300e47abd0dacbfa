import { startFakeVoyage, type FakeVoyage } from '@gateway/provider-voyage/testing';
import { createVoyageProvider } from './voyage-provider';

const ctx = () => ({ requestId: 'test-request', signal: new AbortController().signal });

describe('voyage provider against its fake upstream', () => {
  let fake: FakeVoyage;
  let ports: ReturnType<typeof createVoyageProvider>;
  beforeAll(async () => {
    fake = await startFakeVoyage();
    ports = createVoyageProvider({ baseUrl: fake.url, apiKey: fake.apiKey });
  });
  afterAll(async () => {
    ports.close();
    await fake.close();
  });

  it('embeds with input_type and output_dimension, vectors back in input order', async () => {
    const result = await ports.embedding!.embed(
      { model: 'voyage-3.5', inputs: ['one', 'two words', 'three'], taskType: 'RETRIEVAL_DOCUMENT', dimensions: 512 },
      ctx(),
    );
    expect(fake.bodies('/v1/embeddings').at(-1)).toEqual({
      input: ['one', 'two words', 'three'],
      model: 'voyage-3.5',
      input_type: 'document',
      output_dimension: 512,
    });
    expect(result.embeddings.map((v) => v.length)).toEqual([512, 512, 512]);
    const single = await ports.embedding!.embed(
      { model: 'voyage-3.5', inputs: ['two words'], taskType: 'RETRIEVAL_DOCUMENT', dimensions: 512 },
      ctx(),
    );
    expect(single.embeddings[0]).toEqual(result.embeddings[1]);
    expect(result.usage).toEqual({ inputTokens: 4 });
  });

  it('sends no input_type for other tasks, and shortens sizes Voyage cannot produce', async () => {
    const result = await ports.embedding!.embed({ model: 'voyage-3.5', inputs: ['x'], taskType: 'CLUSTERING', dimensions: 64 }, ctx());
    expect(fake.bodies('/v1/embeddings').at(-1)).toEqual({ input: ['x'], model: 'voyage-3.5' });
    expect(result.embeddings[0]).toHaveLength(64);
    expect(Math.hypot(...result.embeddings[0]!)).toBeCloseTo(1, 9);
  });

  it('reranks with top_k, warning that max_tokens_per_doc is not Voyage’s', async () => {
    const result = await ports.rerank!.rerank(
      { model: 'rerank-2.5', query: 'red apple', documents: ['green pear', 'a red apple', 'red car'], topN: 2, maxTokensPerDoc: 100 },
      ctx(),
    );
    expect(fake.bodies('/v1/rerank').at(-1)).toEqual({
      query: 'red apple',
      documents: ['green pear', 'a red apple', 'red car'],
      model: 'rerank-2.5',
      top_k: 2,
    });
    expect(result.results.map((r) => r.index)).toEqual([1, 2]);
    expect(result.usage).toEqual({ inputTokens: 13 });
    expect(result.warnings).toEqual([expect.objectContaining({ setting: 'max_tokens_per_doc' })]);
  });

  it("maps Voyage's detail on 400 and a bad key", async () => {
    await expect(ports.rerank!.rerank({ model: 'm', query: 'q', documents: Array(1001).fill('d') }, ctx())).rejects.toMatchObject({
      reason: 'invalid_request',
      message: 'The number of documents must not exceed 1000.',
    });
    const wrong = createVoyageProvider({ baseUrl: fake.url, apiKey: 'nope' });
    await expect(wrong.embedding!.embed({ model: 'm', inputs: ['x'] }, ctx())).rejects.toMatchObject({ code: 'upstream_auth_failed' });
    wrong.close();
  });
});
