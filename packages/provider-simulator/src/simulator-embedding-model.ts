import {
  normalisedVector,
  shortenedVector,
  type CallContext,
  type EmbeddingInput,
  type EmbeddingModelPort,
  type EmbeddingRequest,
  type EmbeddingResult,
} from '@gateway/provider-kit';

/** The simulator's vector size when the caller asks for none (OpenAI's text-embedding-3-small). */
export const SIM_EMBEDDING_DIMENSIONS = 1536;

/** Words that carry little meaning: left out so that two texts are not alike for sharing them. */
const STOP_WORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with'.split(' '),
);

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
/** spread over a word's trigrams, so a long word weighs no more than a short one */
const TRIGRAM_WEIGHT = 0.6;

/** FNV-1a, 32 bits: the same feature always lands in the same bucket, on every machine. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Prefix lengths every feature lands in (Matryoshka-like): each feature adds to one bucket within the first 128, one
 * within the first 512 and one anywhere, so a vector cut to any of these lengths still holds every feature.
 */
const LEVELS = [128, 512] as const;
const SEEDS = [0x811c9dc5, 0x2f8a1b3d, 0x6b43a9b5];

/** Adds one feature to the vector: its buckets from one hash per level, its sign from another (collisions cancel on average). */
function add(vector: Float64Array, feature: string, weight: number): void {
  const sign = fnv1a(feature, 0x9747b28c) & 1 ? weight : -weight;
  const levels = [...LEVELS.filter((l) => l < vector.length), vector.length];
  levels.forEach((length, i) => {
    vector[fnv1a(feature, SEEDS[i]) % length]! += sign;
  });
}

/** A light stem (plurals, -ing, -ed), so "cats" and "cat", "sleeping" and "sleep" share their word feature. */
function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

function wordsOf(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .filter((w) => !STOP_WORDS.has(w))
    .map(stem);
}

/** Hashed word, word-pair and character-trigram features: texts that share words or word stems share features. */
function textFeatures(vector: Float64Array, text: string): void {
  const words = wordsOf(text);
  words.forEach((w, i) => {
    add(vector, `w:${w}`, WORD_WEIGHT);
    if (i > 0) add(vector, `b:${words[i - 1]} ${w}`, BIGRAM_WEIGHT);
    const padded = ` ${w} `;
    const grams = padded.length - 2;
    for (let j = 0; j < grams; j++) add(vector, `c:${padded.slice(j, j + 3)}`, TRIGRAM_WEIGHT / Math.sqrt(grams));
  });
  // only punctuation or stop words: the text itself, so it still has a direction of its own
  if (words.length === 0) add(vector, `raw:${text}`, 1);
}

function tokenFeatures(vector: Float64Array, tokens: readonly number[]): void {
  tokens.forEach((t, i) => {
    add(vector, `t:${t}`, WORD_WEIGHT);
    if (i > 0) add(vector, `tb:${tokens[i - 1]} ${t}`, BIGRAM_WEIGHT);
  });
}

/** One input's embedding: deterministic, unit length, `size` long. */
export function simulatedEmbedding(input: EmbeddingInput, size = SIM_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Float64Array(size);
  if (typeof input === 'string') textFeatures(vector, input);
  else tokenFeatures(vector, input);
  return normalisedVector(Array.from(vector));
}

/** What the simulator says an input weighs: its token ids, or about four characters a token. */
const tokensOf = (input: EmbeddingInput) => (typeof input === 'string' ? Math.max(1, Math.ceil(input.length / 4)) : input.length);

/**
 * Embeddings that mean something, offline: hashed features (simulatedEmbedding), L2-normalised, so related texts are
 * measurably closer than unrelated ones and the same text always gives the same vector. `dimensions` below the
 * default cuts and renormalises (as Matryoshka models do); above it, the vector is made that long.
 */
export class SimulatorEmbeddingModel implements EmbeddingModelPort {
  async embed(request: EmbeddingRequest, _ctx: CallContext): Promise<EmbeddingResult> {
    const size = Math.max(SIM_EMBEDDING_DIMENSIONS, request.dimensions ?? 0);
    return {
      embeddings: request.inputs.map((input) => shortenedVector(simulatedEmbedding(input, size), request.dimensions)),
      usage: { inputTokens: request.inputs.reduce((n, i) => n + tokensOf(i), 0) },
      warnings: [],
    };
  }
}
