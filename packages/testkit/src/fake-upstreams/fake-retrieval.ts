import { createHash } from 'node:crypto';

/**
 * What fake embedding and rerank upstreams answer: deterministic, so a test can predict them, and shaped like
 * the real thing (unit-length vectors, relevance in (0, 1) best first). Not the simulator's algorithms: a fake
 * only has to be recognisable, so a test can tell which upstream answered.
 */

/** A unit-length vector from the text's hash: the same text always gives the same vector. */
export function fakeVector(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < digest.length && values.length < dimensions; i += 2) values.push(digest.readInt16LE(i) / 32768);
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((v) => v / norm);
}

/** Words in the text, as a fake counts tokens. */
export function fakeTokenCount(text: string): number {
  return (text.match(/\S+/g) ?? []).length;
}

/** Documents ranked by the share of the query's words they contain, best first, ties in input order. */
export function fakeRanking(query: string, documents: readonly string[]): Array<{ index: number; relevance_score: number }> {
  const words = new Set(query.toLowerCase().match(/\w+/g) ?? []);
  return documents
    .map((d, index) => {
      const has = new Set(d.toLowerCase().match(/\w+/g) ?? []);
      const shared = [...words].filter((w) => has.has(w)).length;
      return { index, relevance_score: Number(((shared + 0.01) / (words.size + 0.02)).toFixed(6)) };
    })
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
}
