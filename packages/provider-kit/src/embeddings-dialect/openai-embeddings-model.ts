import os from 'node:os';
import type { CallContext, EmbeddingModelPort, EmbeddingRequest, EmbeddingResult } from '../contract-core';
import { invalid } from '../contract-core';
import { malformedUpstream } from '../upstream-errors';
import type { UpstreamClient } from '../upstream-client';
import { s } from '../upstream-schema';

/** OpenAI's CreateEmbeddingResponse, as OpenAI and the servers that copy it (vLLM, Ollama, LM Studio, TEI) answer it. */
export const openAiEmbeddingsResponseSchema = s.object({
  // the vector is checked by vectorOf: one loop, not a schema call per value
  data: s.array(s.object({ index: s.number(), embedding: s.unknown() })),
  model: s.string(),
  usage: s.object({ prompt_tokens: s.number(), total_tokens: s.number() }),
});

const LITTLE_ENDIAN = os.endianness() === 'LE';

/** A base64 embedding: little-endian float32 values. */
export function decodeBase64Vector(b64: string): number[] {
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length % 4 !== 0) throw malformedUpstream('a base64 embedding whose length is not a whole number of float32 values');
  const out = new Array<number>(bytes.length / 4);
  if (!LITTLE_ENDIAN) {
    for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
    return out;
  }
  // the wire's layout is the machine's: read through a float view (2.5x faster than a call per value), over a copy
  // of its own since a view needs an aligned offset that a pooled buffer need not have
  const floats = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  for (let i = 0; i < out.length; i++) out[i] = floats[i]!;
  return out;
}

/** An answer's `embedding`: base64 (little-endian float32) or an array of finite numbers. */
function vectorOf(embedding: unknown): number[] {
  if (typeof embedding === 'string') return decodeBase64Vector(embedding);
  if (!Array.isArray(embedding)) throw malformedUpstream('an embedding that is neither base64 nor an array of numbers');
  for (const x of embedding as unknown[])
    if (typeof x !== 'number' || !Number.isFinite(x)) throw malformedUpstream('an embedding with a value that is not a number');
  return embedding as number[];
}

export interface OpenAiEmbeddingsOptions {
  /**
   * What the upstream is asked for: `base64` (OpenAI: a third of the bytes, exact float32) or `float` (servers that
   * may not know base64). Either answer is read.
   */
  encoding: 'base64' | 'float';
}

/**
 * `POST <base>/embeddings` in OpenAI's shape, behind the embedding port: OpenAI itself and every OpenAI-compatible
 * server. Vectors come back in input order whatever order `data` lists them in; a server that counts no tokens
 * leaves `usage` out and the gateway estimates it.
 */
export class OpenAiEmbeddingsModel implements EmbeddingModelPort {
  constructor(
    private readonly http: UpstreamClient,
    private readonly options: OpenAiEmbeddingsOptions = { encoding: 'base64' },
  ) {}

  async embed(request: EmbeddingRequest, ctx: CallContext): Promise<EmbeddingResult> {
    const texts = request.inputs.every((i) => typeof i === 'string');
    const tokens = request.inputs.every((i) => typeof i !== 'string');
    if (!texts && !tokens) throw invalid('mixed_inputs', 'Send either texts or token arrays in one request, not both.', 'input');
    const json = {
      model: request.model,
      input: request.inputs,
      encoding_format: this.options.encoding,
      ...(request.dimensions === undefined ? {} : { dimensions: request.dimensions }),
      ...(request.user === undefined ? {} : { user: request.user }),
    };
    const res = await this.http.request({ method: 'POST', path: '/embeddings', json, signal: ctx.signal });
    const answer = await res.json(openAiEmbeddingsResponseSchema, 'an embeddings answer');
    const embeddings = new Array<number[]>(request.inputs.length);
    for (const d of answer.data ?? []) {
      const i = d.index;
      if (i === undefined || !Number.isInteger(i) || i < 0 || i >= embeddings.length || d.embedding === undefined)
        throw malformedUpstream('an embeddings answer with an index outside the inputs');
      embeddings[i] = vectorOf(d.embedding);
    }
    if (embeddings.some((e) => e === undefined) || (answer.data ?? []).length !== embeddings.length)
      throw malformedUpstream(`an embeddings answer with ${(answer.data ?? []).length} vectors for ${embeddings.length} inputs`);
    const inputTokens = answer.usage?.prompt_tokens;
    return {
      embeddings,
      ...(inputTokens === undefined || inputTokens <= 0 ? {} : { usage: { inputTokens } }),
      warnings: [],
      ...(res.requestId ? { upstreamRequestId: res.requestId } : {}),
    };
  }
}
