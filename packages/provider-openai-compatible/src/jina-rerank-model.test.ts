import { startFakeJinaRerank, type FakeJinaRerank } from '@gateway/provider-openai-compatible/testing';
import { createOpenAiCompatibleProvider } from './openai-compatible-provider';

const ctx = () => ({ requestId: 'test-request', signal: new AbortController().signal });

describe('openai-compatible rerank in the Jina shape (vLLM, Infinity)', () => {
  let fake: FakeJinaRerank;
  let ports: ReturnType<typeof createOpenAiCompatibleProvider>;
  beforeAll(async () => {
    fake = await startFakeJinaRerank();
    ports = createOpenAiCompatibleProvider({ baseUrl: fake.url });
  });
  afterAll(async () => {
    ports.close();
    await fake.close();
  });

  it('posts <base>/rerank without asking for documents back, and reads ranking and tokens', async () => {
    const result = await ports.rerank.rerank(
      { model: 'bge-reranker', query: 'blue sky', documents: ['green grass', 'the blue sky'], topN: 1 },
      ctx(),
    );
    expect(fake.bodies().at(-1)).toEqual({
      model: 'bge-reranker',
      query: 'blue sky',
      documents: ['green grass', 'the blue sky'],
      top_n: 1,
      return_documents: false,
    });
    expect(result.results).toEqual([{ index: 1, relevanceScore: expect.any(Number) }]);
    expect(result.usage).toEqual({ inputTokens: 9 });
    expect(result.warnings).toEqual([]);
  });

  it('passes the server’s 400 on as the caller’s error', async () => {
    fake.api.failNext('create', 1, { status: 400, body: { error: { message: 'too many documents', type: 'BadRequestError' } } });
    await expect(ports.rerank.rerank({ model: 'm', query: 'q', documents: ['d'] }, ctx())).rejects.toMatchObject({
      reason: 'invalid_request',
    });
  });
});
