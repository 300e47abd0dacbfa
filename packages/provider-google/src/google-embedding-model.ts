import {
  invalid,
  malformedUpstream,
  s,
  normalisedVector,
  type CallContext,
  type EmbeddingModelPort,
  type EmbeddingRequest,
  type EmbeddingResult,
  type UpstreamClient,
} from '@gateway/provider-kit';
import { modelPath } from './google-chat-model';

/** Gemini's BatchEmbedContentsResponse. */
export const googleBatchEmbedResponseSchema = s.object({ embeddings: s.array(s.object({ values: s.array(s.number()) })) });

/** The most requests Gemini takes in one batchEmbedContents call. */
const GEMINI_BATCH = 100;

/**
 * Gemini `models/{model}:batchEmbedContents` behind the embedding port: one upstream call per 100 inputs, in order.
 * Gemini normalises only its full-size (3,072) vectors; a vector shortened by `outputDimensionality` is renormalised
 * here, so cosine and dot product agree as with every other upstream. Gemini counts no tokens: the gateway estimates
 * them. It reads text only: token arrays are refused.
 */
export class GoogleEmbeddingModel implements EmbeddingModelPort {
  constructor(
    private readonly transport: UpstreamClient,
    private readonly apiVersion: string,
  ) {}

  async embed(request: EmbeddingRequest, ctx: CallContext): Promise<EmbeddingResult> {
    const model = modelPath(request.model);
    const requests = request.inputs.map((input, i) => {
      if (typeof input !== 'string')
        throw invalid('unsupported_input', `input[${i}] is a token array: this model's upstream (Gemini) embeds text only.`, 'input');
      return {
        model,
        content: { parts: [{ text: input }] },
        ...(request.taskType ? { taskType: request.taskType } : {}),
        ...(request.title && request.taskType === 'RETRIEVAL_DOCUMENT' ? { title: request.title } : {}),
        ...(request.dimensions === undefined ? {} : { outputDimensionality: request.dimensions }),
      };
    });
    const vectors: number[][] = [];
    let upstreamRequestId: string | undefined;
    for (let i = 0; i < requests.length; i += GEMINI_BATCH) {
      const chunk = requests.slice(i, i + GEMINI_BATCH);
      const got = await this.batch(model, chunk, ctx);
      upstreamRequestId ??= got.requestId;
      vectors.push(...got.vectors);
    }
    return {
      // shortened vectors come back at the length asked but not at unit length
      embeddings: request.dimensions === undefined ? vectors : vectors.map(normalisedVector),
      warnings: [],
      ...(upstreamRequestId ? { upstreamRequestId } : {}),
    };
  }

  private async batch(model: string, requests: object[], ctx: CallContext): Promise<{ vectors: number[][]; requestId?: string }> {
    const path = `/${this.apiVersion}/${model}:batchEmbedContents`;
    const res = await this.transport.request({ method: 'POST', path, json: { requests }, signal: ctx.signal });
    const answer = await res.json(googleBatchEmbedResponseSchema, 'a batchEmbedContents answer');
    const vectors = (answer.embeddings ?? []).map((e) => e.values ?? []);
    if (vectors.length !== requests.length || vectors.some((v) => v.length === 0))
      throw malformedUpstream(`a batchEmbedContents answer with ${vectors.length} embeddings for ${requests.length} inputs`);
    return { vectors, requestId: res.requestId };
  }
}
