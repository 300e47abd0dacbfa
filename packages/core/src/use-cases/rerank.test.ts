import { checkRerankCommand, RERANK_LIMITS, searchUnitsFor } from './rerank';

describe('rerank limits and search units', () => {
  const ok = { query: 'q', documents: ['a'] };

  it('counts one search unit per query per 100 documents or fewer', () => {
    expect([1, 100, 101, 1000].map(searchUnitsFor)).toEqual([1, 1, 2, 10]);
  });

  it('refuses each limit naming the field as both dialects spell it', () => {
    const refused = (c: Parameters<typeof checkRerankCommand>[0]) => {
      try {
        checkRerankCommand(c);
      } catch (e) {
        return (e as { param?: string }).param;
      }
      return undefined;
    };
    expect(refused(ok)).toBeUndefined();
    expect(refused({ ...ok, query: ' ' })).toBe('query');
    expect(refused({ ...ok, documents: [] })).toBe('documents');
    expect(refused({ ...ok, documents: Array(RERANK_LIMITS.maxDocuments + 1).fill('d') })).toBe('documents');
    expect(refused({ ...ok, topN: 0 })).toBe('top_n');
    expect(refused({ ...ok, maxTokensPerDoc: 4097 })).toBe('max_tokens_per_doc');
    expect(refused({ ...ok, documents: Array(RERANK_LIMITS.maxDocuments).fill('d'), topN: 5, maxTokensPerDoc: 4096 })).toBeUndefined();
  });
});
