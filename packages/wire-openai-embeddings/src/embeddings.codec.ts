import os from 'node:os';
import type { EmbeddingAnswer, EmbeddingInput } from '@gateway/core';
import type { EmbeddingsRequestBody } from './embeddings.request.schema';

/** The inputs as a list: one string or one token array is one input. */
export function inputsOf(input: EmbeddingsRequestBody['input']): EmbeddingInput[] {
  if (typeof input === 'string') return [input];
  if (input.length > 0 && input.every((x): x is number => typeof x === 'number')) return [input];
  return input as EmbeddingInput[];
}

const LITTLE_ENDIAN = os.endianness() === 'LE';

/** A vector as OpenAI's base64: its float32 values, little-endian, whatever the machine's byte order. */
export function base64Vector(vector: readonly number[]): string {
  if (LITTLE_ENDIAN) {
    // the machine's own float32 layout is the wire's: one copy, no per-value calls
    const floats = Float32Array.from(vector);
    return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
  }
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
  return bytes.toString('base64');
}

/** The answer in the encoding the caller asked for: `float` (the default) or `base64`. */
export function encodeEmbeddings(answer: EmbeddingAnswer, model: string, encoding: 'float' | 'base64') {
  return {
    object: 'list',
    data: answer.embeddings.map((v, index) => ({
      object: 'embedding',
      index,
      embedding: encoding === 'base64' ? base64Vector(v) : v,
    })),
    model,
    usage: { prompt_tokens: answer.usage.inputTokens, total_tokens: answer.usage.inputTokens },
  };
}
