import {
  embeddingTexts,
  malformedUpstream,
  shortenedVector,
  type CallContext,
  type EmbeddingModelPort,
  type EmbeddingRequest,
  type EmbeddingResult,
  type UpstreamClient,
} from '@gateway/provider-kit';
import { VOYAGE_MAX_INPUTS_PER_EMBED, VOYAGE_OUTPUT_DIMENSIONS, voyageEmbedResponseSchema, type VoyageEmbedBody } from './voyage-api';

/** Gemini's task types (the core request's hint) as Voyage's input_type; anything else is sent without one. */
const QUERY_TASKS = new Set(['RETRIEVAL_QUERY', 'QUESTION_ANSWERING', 'FACT_VERIFICATION', 'CODE_RETRIEVAL_QUERY']);

function inputType(taskType: string | undefined): VoyageEmbedBody['input_type'] {
  if (!taskType) return undefined;
  if (QUERY_TASKS.has(taskType)) return 'query';
  return taskType === 'RETRIEVAL_DOCUMENT' ? 'document' : undefined;
}

/**
 * Voyage's /embeddings behind the embedding port: floats always (Voyage's own base64 is not asked for: the gateway
 * encodes what its caller asked), vectors put back in input order by `index`, batches of 1,000 inputs.
 */
export class VoyageEmbeddingModel implements EmbeddingModelPort {
  constructor(private readonly http: UpstreamClient) {}

  async embed(request: EmbeddingRequest, ctx: CallContext): Promise<EmbeddingResult> {
    const texts = embeddingTexts(request);
    const dims = request.dimensions;
    const upstreamDims = dims !== undefined && VOYAGE_OUTPUT_DIMENSIONS.has(dims);
    const type = inputType(request.taskType);
    const embeddings: number[][] = [];
    let inputTokens = 0;
    let upstreamRequestId: string | undefined;
    for (let i = 0; i < texts.length; i += VOYAGE_MAX_INPUTS_PER_EMBED) {
      const input = texts.slice(i, i + VOYAGE_MAX_INPUTS_PER_EMBED);
      const body: VoyageEmbedBody = {
        input,
        model: request.model,
        ...(type ? { input_type: type } : {}),
        ...(upstreamDims ? { output_dimension: dims } : {}),
      };
      const res = await this.http.request({ method: 'POST', path: '/embeddings', json: body, signal: ctx.signal });
      upstreamRequestId ??= res.requestId;
      const answer = await res.json(voyageEmbedResponseSchema, 'an embeddings answer');
      const ordered = [...(answer.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding ?? []);
      if (ordered.length !== input.length)
        throw malformedUpstream(`an embeddings answer with ${ordered.length} vectors for ${input.length} inputs`);
      embeddings.push(...ordered);
      inputTokens += answer.usage?.total_tokens ?? 0;
    }
    return {
      embeddings: embeddings.map((v) => shortenedVector(v, dims)),
      usage: { inputTokens },
      warnings: [],
      ...(upstreamRequestId ? { upstreamRequestId } : {}),
    };
  }
}
