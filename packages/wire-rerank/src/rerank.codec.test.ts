import { decodeRerankRequest, documentText } from './rerank.request.codec';
import { encodeRerankResponse } from './rerank.response.codec';

describe('rerank codecs', () => {
  it('reads Cohere v2 text documents and the optional numbers, nulls as absent', () => {
    const d = decodeRerankRequest({ model: 'm', query: 'q', documents: ['a', 'b'], top_n: 1, max_tokens_per_doc: null });
    expect(d).toEqual({ query: 'q', documents: ['a', 'b'], topN: 1, returnDocuments: false, sent: ['a', 'b'] });
  });

  it('ranks object documents by text, by rank_fields, or as JSON', () => {
    expect(documentText({ text: 'hello', id: 1 })).toBe('hello');
    expect(documentText({ title: 'T', body: 'B', n: 2 }, ['title', 'n'])).toBe('title: T\nn: 2');
    expect(documentText({ title: 'T' })).toBe('{"title":"T"}');
    const d = decodeRerankRequest({ model: 'm', query: 'q', documents: [{ text: 'x' }, 'y'], return_documents: true });
    expect(d.documents).toEqual(['x', 'y']);
    expect(d.returnDocuments).toBe(true);
  });

  it('answers in both dialects, with document only when asked and never null', () => {
    const answer = {
      results: [
        { index: 1, relevanceScore: 0.8 },
        { index: 0, relevanceScore: 0.2 },
      ],
      searchUnits: 1,
      inputTokens: 12,
    };
    const plain = encodeRerankResponse('id1', 'sim-rerank', answer);
    expect(plain).toEqual({
      id: 'id1',
      model: 'sim-rerank',
      results: [
        { index: 1, relevance_score: 0.8 },
        { index: 0, relevance_score: 0.2 },
      ],
      meta: { api_version: { version: '2' }, billed_units: { search_units: 1 }, tokens: { input_tokens: 12, output_tokens: 0 } },
      usage: { prompt_tokens: 12, total_tokens: 12 },
    });
    const withDocs = encodeRerankResponse('id1', 'm', answer, ['first', { text: 'second', id: 7 }]);
    expect((withDocs.results as unknown[])[0]).toEqual({ index: 1, relevance_score: 0.8, document: { text: 'second', id: 7 } });
    expect((withDocs.results as unknown[])[1]).toEqual({ index: 0, relevance_score: 0.2, document: { text: 'first' } });
  });
});
