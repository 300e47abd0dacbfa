/**
 * BM25 over the documents of one rerank request: the document that shares the query's rarer words ranks first.
 * IDF is computed inside the request (its documents are the whole corpus), so a request ranks the same whatever
 * came before it. Raw BM25 scores are unbounded; relevance scores are squashed into (0, 1) as vendors answer them.
 */

const K1 = 1.2;
const B = 0.75;

export interface RankedDocument {
  index: number;
  relevanceScore: number;
}

/** Lower-case words, a plural `s` folded so `cats` meets `cat`. */
export function rerankTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

function counts(terms: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** BM25 scores of each document against the query, in document order. */
export function bm25Scores(query: string, documents: readonly string[]): number[] {
  const docs = documents.map((d) => counts(rerankTerms(d)));
  const lengths = documents.map((_, i) => [...docs[i]!.values()].reduce((a, b) => a + b, 0));
  const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, documents.length) || 1;
  const queryTerms = [...new Set(rerankTerms(query))];
  const idf = new Map(
    queryTerms.map((t) => {
      const n = docs.filter((d) => d.has(t)).length;
      return [t, Math.log(1 + (documents.length - n + 0.5) / (n + 0.5))] as const;
    }),
  );
  return docs.map((d, i) => {
    let score = 0;
    for (const t of queryTerms) {
      const tf = d.get(t) ?? 0;
      if (tf) score += (idf.get(t)! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[i]!) / avg));
    }
    return score;
  });
}

/** A rational squash (a logistic saturates to 1.0 in floats): no match is 0.09, one shared rare word past 0.5, never 0 or 1. */
export function relevanceOf(score: number): number {
  return (score + 0.1) / (score + 1.1);
}

/** The documents best first; equal scores keep the order they came in. */
export function rankDocuments(query: string, documents: readonly string[]): RankedDocument[] {
  return bm25Scores(query, documents)
    .map((s, index) => ({ index, relevanceScore: relevanceOf(s) }))
    .sort((a, b) => b.relevanceScore - a.relevanceScore || a.index - b.index);
}
