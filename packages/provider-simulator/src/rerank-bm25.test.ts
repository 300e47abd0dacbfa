import { bm25Scores, rankDocuments, relevanceOf, rerankTerms } from './rerank-bm25';

describe('simulator rerank (BM25 inside the request)', () => {
  const docs = [
    'Paris is the capital of France.',
    'The quick brown fox jumps over the lazy dog.',
    'Berlin is the capital of Germany and its largest city.',
    'Cats sleep most of the day.',
  ];

  it('ranks first the document that shares the query words', () => {
    expect(rankDocuments('What is the capital of Germany?', docs)[0]!.index).toBe(2);
    expect(rankDocuments('sleeping cat', docs)[0]!.index).toBe(3);
    expect(rankDocuments('fox', docs).map((r) => r.index)).toEqual([1, 0, 2, 3]);
  });

  it('weighs rare words above common ones (IDF over the request)', () => {
    const [paris, , berlin] = bm25Scores('capital France', docs);
    expect(paris!).toBeGreaterThan(berlin!);
    expect(berlin!).toBeGreaterThan(0);
  });

  it('squashes scores into (0, 1), monotonically', () => {
    for (const s of [0, 0.5, 3, 50]) {
      expect(relevanceOf(s)).toBeGreaterThan(0);
      expect(relevanceOf(s)).toBeLessThan(1);
    }
    expect(relevanceOf(2)).toBeGreaterThan(relevanceOf(1));
    expect(relevanceOf(0)).toBeLessThan(0.5);
  });

  it('keeps equal scores in input order, and answers the same every time', () => {
    const same = ['alpha', 'beta', 'alpha', 'gamma'];
    const ranked = rankDocuments('nothing shared', same);
    expect(ranked.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(rankDocuments('alpha', same).map((r) => r.index)).toEqual([0, 2, 1, 3]);
    expect(rankDocuments('capital Germany', docs)).toEqual(rankDocuments('capital Germany', docs));
  });

  it('folds plurals and case, and reads any script', () => {
    expect(rerankTerms('Cats, DOGS and glass')).toEqual(['cat', 'dog', 'and', 'glass']);
    expect(rankDocuments('東京', ['大阪 の 天気', '東京 の 天気'])[0]!.index).toBe(1);
  });

  it('copes with no documents and empty documents', () => {
    expect(rankDocuments('q', [])).toEqual([]);
    expect(rankDocuments('q', ['', 'q'])[0]!.index).toBe(1);
  });
});
