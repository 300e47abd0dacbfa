import type { CallContext, EmbeddingModelPort, EmbeddingRequest, EmbeddingResult, UpstreamClient } from '@gateway/provider-kit';
import { embeddingTexts, malformedUpstream, shortenedVector } from '@gateway/provider-kit';
import { COHERE_MAX_TEXTS_PER_EMBED, cohereEmbedResponseSchema } from './cohere-api';
import { convertToCohereEmbed } from './convert-to-cohere-embed';

/**
 * Cohere's /v2/embed behind the embedding port: texts in batches of 96 (Cohere's limit), vectors in input order,
 * billed input tokens summed. A `dimensions` embed-v4 cannot produce upstream is shortened here and renormalised.
 */
export class CohereEmbeddingModel implements EmbeddingModelPort {
  constructor(private readonly http: UpstreamClient) {}

  async embed(request: EmbeddingRequest, ctx: CallContext): Promise<EmbeddingResult> {
    const texts = embeddingTexts(request);
    const embeddings: number[][] = [];
    let inputTokens: number | undefined;
    let upstreamRequestId: string | undefined;
    for (let i = 0; i < texts.length; i += COHERE_MAX_TEXTS_PER_EMBED) {
      const batch = texts.slice(i, i + COHERE_MAX_TEXTS_PER_EMBED);
      const body = convertToCohereEmbed(request, batch);
      const res = await this.http.request({ method: 'POST', path: '/v2/embed', json: body, signal: ctx.signal });
      upstreamRequestId ??= res.requestId;
      const answer = await res.json(cohereEmbedResponseSchema, 'an embed answer');
      const vectors = answer.embeddings?.float ?? [];
      if (vectors.length !== batch.length) throw malformedCount(vectors.length, batch.length);
      embeddings.push(...vectors);
      const billed = answer.meta?.billed_units?.input_tokens;
      if (billed !== undefined) inputTokens = (inputTokens ?? 0) + billed;
    }
    const dims = request.dimensions;
    return {
      embeddings: embeddings.map((v) => shortenedVector(v, dims)),
      ...(inputTokens !== undefined ? { usage: { inputTokens } } : {}),
      warnings: [],
      ...(upstreamRequestId ? { upstreamRequestId } : {}),
    };
  }
}

function malformedCount(got: number, sent: number) {
  return malformedUpstream(`an embed answer with ${got} vectors for ${sent} texts`);
}
