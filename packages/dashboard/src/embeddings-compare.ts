/** The pure side of the Playground's embeddings panel: one request for both texts, then their cosine similarity. */

/** POST /v1/embeddings for two texts at once; floats, which the page reads without decoding. */
export function embeddingsBody(model: string, first: string, second: string) {
  return { model, input: [first, second], encoding_format: 'float' as const };
}

export interface EmbeddingsAnswer {
  data: Array<{ index: number; embedding: number[] }>;
}

/** 1 for the same direction, 0 for unrelated, -1 for opposite; 0 when either vector is all zeros. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`The vectors differ in size (${a.length} and ${b.length}).`);
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return aa === 0 || bb === 0 ? 0 : dot / Math.sqrt(aa * bb);
}

/** The similarity of the answer's two vectors, taken by `index` (the order OpenAI promises, not the array's). */
export function compareEmbeddings(answer: EmbeddingsAnswer): { similarity: number; dimensions: number } {
  const first = answer.data.find((d) => d.index === 0)?.embedding;
  const second = answer.data.find((d) => d.index === 1)?.embedding;
  if (!first || !second) throw new Error('The answer does not hold two vectors.');
  return { similarity: cosineSimilarity(first, second), dimensions: first.length };
}
