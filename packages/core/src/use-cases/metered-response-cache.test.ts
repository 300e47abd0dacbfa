import { InMemoryResponseCacheStore } from '@gateway/testkit';
import { ModelCatalogue, type ModelSpec } from '../catalogue';
import type { EmbeddingRequest } from '../embedding';
import type { UsageRow } from '../ports/usage-log.port';
import type { RerankRequest } from '../rerank';
import type { CacheStatus } from '../response-cache';
import { Embeddings } from './embeddings';
import { Rerank } from './rerank';

const names = { input: 'input', dimensions: 'dimensions' };
const alpha = { accountId: 'alpha', keyId: 'ka', group: 'g' };
const beta = { accountId: 'beta', keyId: 'kb', group: 'g' };
const meta = (cacheControl = {}) => ({ format: 'test', requestId: 'r', signal: new AbortController().signal, cacheControl });
const deployments = [{ provider: 'p', upstreamModel: 'up', priority: 0, weight: 1 }];
const embedModel: ModelSpec = {
  id: 'e',
  kind: 'embedding',
  deployments,
  cache: { ttlSeconds: 60 },
  pricing: { inputPerMillionTokens: 1_000_000, cacheHitMultiplier: 0.5 },
};
const uncachedModel: ModelSpec = { id: 'plain', kind: 'embedding', deployments };
const rerankModel: ModelSpec = { id: 'r', kind: 'rerank', deployments, cache: { ttlSeconds: 60 } };

function setup() {
  const rows: UsageRow[] = [];
  const store = new InMemoryResponseCacheStore();
  const looked: Array<[string, string, CacheStatus]> = [];
  const storedBytes: number[] = [];
  const cache = {
    store,
    observer: {
      looked: (...a: [string, string, CacheStatus]) => looked.push(a),
      stored: (_k: string, _m: string, b: number) => storedBytes.push(b),
    },
  };
  const embedded: EmbeddingRequest[] = [];
  const reranked: RerankRequest[] = [];
  const deps = {
    catalogue: new ModelCatalogue([embedModel, uncachedModel, rerankModel], [{ name: 'g', models: ['*'] }]),
    usage: { record: (r: UsageRow) => rows.push(r), flush: async () => {} },
  };
  const embeddings = new Embeddings({
    ...deps,
    cache,
    providers: {
      embedding: () => ({
        embed: async (req) => {
          embedded.push(req);
          return { embeddings: req.inputs.map((i) => [String(i).length, 1]), usage: { inputTokens: 10 * req.inputs.length }, warnings: [] };
        },
      }),
    },
  });
  const rerank = new Rerank(
    deps,
    () => ({
      rerank: async (req) => {
        reranked.push(req);
        return { results: req.documents.map((_, index) => ({ index, relevanceScore: 1 / (index + 1) })), warnings: [] };
      },
    }),
    cache,
  );
  return { embeddings, rerank, rows, store, looked, storedBytes, embedded, reranked };
}

describe('the response cache for embeddings, per input item', () => {
  it('a partly cached batch sends only the new items upstream and answers every vector in input order', async () => {
    const t = setup();
    const first = await t.embeddings.embed(alpha, { model: embedModel, inputs: ['aa', 'bbbb'] }, meta(), names);
    expect(first.cache).toBe('miss');
    const second = await t.embeddings.embed(alpha, { model: embedModel, inputs: ['ccc', 'bbbb', 'aa', 'dddddd'] }, meta(), names);
    expect(t.embedded.map((r) => r.inputs)).toEqual([
      ['aa', 'bbbb'],
      ['ccc', 'dddddd'],
    ]);
    expect(second.embeddings).toEqual([
      [3, 1],
      [4, 1],
      [2, 1],
      [6, 1],
    ]);
    expect(second.cache).toBe('miss');
    const third = await t.embeddings.embed(alpha, { model: embedModel, inputs: ['dddddd', 'aa'] }, meta(), names);
    expect(third).toMatchObject({
      cache: 'hit',
      embeddings: [
        [6, 1],
        [2, 1],
      ],
    });
    expect(t.embedded).toHaveLength(2);
    expect(t.looked.map((l) => l[2])).toEqual(['miss', 'miss', 'hit']);
    expect(t.storedBytes).toHaveLength(4);
  });

  it('another account misses; another dimension or task type is another entry', async () => {
    const t = setup();
    await t.embeddings.embed(alpha, { model: embedModel, inputs: ['aa'] }, meta(), names);
    expect((await t.embeddings.embed(beta, { model: embedModel, inputs: ['aa'] }, meta(), names)).cache).toBe('miss');
    expect((await t.embeddings.embed(alpha, { model: embedModel, inputs: ['aa'], dimensions: 1 }, meta(), names)).cache).toBe('miss');
    expect((await t.embeddings.embed(alpha, { model: embedModel, inputs: ['aa'], taskType: 'RETRIEVAL_QUERY' }, meta(), names)).cache).toBe(
      'miss',
    );
    expect((await t.embeddings.embed(alpha, { model: embedModel, inputs: ['aa'], user: 'someone' }, meta(), names)).cache).toBe('hit');
    expect(t.embedded).toHaveLength(4);
  });

  it('a hit writes a usage row marked as a hit, priced at cacheHitMultiplier times the price', async () => {
    const t = setup();
    await t.embeddings.embed(alpha, { model: embedModel, inputs: ['aaaaaaaa'] }, meta(), names);
    t.rows.length = 0;
    await t.embeddings.embed(alpha, { model: embedModel, inputs: ['aaaaaaaa'] }, meta(), names);
    expect(t.rows).toEqual([
      expect.objectContaining({
        cacheHit: true,
        accountId: 'alpha',
        model: 'e',
        inputTokens: 2,
        estimated: true,
        credits: 1,
        status: 'ok',
      }),
    ]);
  });

  it('no-cache skips the lookup but stores; no-store skips both; a model without a cache says nothing', async () => {
    const t = setup();
    expect((await t.embeddings.embed(alpha, { model: embedModel, inputs: ['x'] }, meta({ noCache: true }), names)).cache).toBe('bypass');
    expect((await t.embeddings.embed(alpha, { model: embedModel, inputs: ['x'] }, meta(), names)).cache).toBe('hit');
    expect((await t.embeddings.embed(alpha, { model: embedModel, inputs: ['y'] }, meta({ noStore: true }), names)).cache).toBe('bypass');
    expect((await t.embeddings.embed(alpha, { model: embedModel, inputs: ['y'] }, meta(), names)).cache).toBe('miss');
    const plain = await t.embeddings.embed(alpha, { model: uncachedModel, inputs: ['x'] }, meta(), names);
    expect(plain.cache).toBeUndefined();
    expect(t.store.size).toBe(2);
  });
});

describe('the response cache for rerank, per request', () => {
  const command = { query: 'q', documents: ['d1', 'd2', 'd3'], topN: 2 };

  it('a second identical request is answered from the cache; another account, top_n or query is not', async () => {
    const t = setup();
    const first = await t.rerank.rerank(alpha, rerankModel, command, meta());
    const again = await t.rerank.rerank(alpha, rerankModel, command, meta());
    expect(first.cache).toBe('miss');
    expect(again).toMatchObject({ cache: 'hit', results: first.results, searchUnits: first.searchUnits });
    expect(t.reranked).toHaveLength(1);
    expect(t.rows.at(-1)).toMatchObject({ cacheHit: true, searchUnits: 1, credits: 0 });
    expect((await t.rerank.rerank(beta, rerankModel, command, meta())).cache).toBe('miss');
    expect((await t.rerank.rerank(alpha, rerankModel, { ...command, topN: 3 }, meta())).cache).toBe('miss');
    expect((await t.rerank.rerank(alpha, rerankModel, { ...command, query: 'other' }, meta())).cache).toBe('miss');
    expect(t.reranked).toHaveLength(4);
  });
});
