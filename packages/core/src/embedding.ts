/** Embeddings: what the embeddings routes ask of an embedding model, whatever the inbound format or upstream. */
import type { Warning } from './warnings';

/** One input: a text, or the token ids of one (OpenAI's token arrays). */
export type EmbeddingInput = string | readonly number[];

export interface EmbeddingRequest {
  /** the upstream model name (the use case sets it per deployment) */
  model: string;
  /** in order: the answer has one vector per input, in the same order */
  inputs: readonly EmbeddingInput[];
  /** shorten each vector to this many dimensions (renormalised to unit length) */
  dimensions?: number;
  /** Gemini's taskType (RETRIEVAL_QUERY, RETRIEVAL_DOCUMENT, SEMANTIC_SIMILARITY...): a hint upstreams may ignore */
  taskType?: string;
  /** Gemini's document title (RETRIEVAL_DOCUMENT only) */
  title?: string;
  /** the caller's end-user id, passed to upstreams that take one */
  user?: string;
}

export interface EmbeddingResult {
  /** one per input, in input order */
  embeddings: number[][];
  /** the input tokens as the upstream counted them; absent when it counts none (the gateway estimates them) */
  usage?: { inputTokens: number };
  warnings: Warning[];
  upstreamRequestId?: string;
}

/** A vector scaled to unit length (a zero vector stays zero). */
export function normalisedVector(v: readonly number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm === 0 ? [...v] : v.map((x) => x / norm);
}

/**
 * A vector cut to its first `dimensions` and scaled back to unit length: what a shortened embedding must be for
 * cosine and dot-product similarity to agree (Matryoshka embeddings; Gemini leaves vectors below 3,072 unnormalised).
 * Without `dimensions`, or no shorter than the vector, the vector unchanged.
 */
export function shortenedVector(v: readonly number[], dimensions?: number): number[] {
  if (dimensions === undefined || dimensions >= v.length) return [...v];
  return normalisedVector(v.slice(0, dimensions));
}
