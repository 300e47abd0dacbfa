import type { CallContext, RerankModelPort, RerankRequest, RerankResult, UpstreamClient } from '@gateway/provider-kit';
import { cohereRerankResponseSchema, type CohereRerankBody } from './cohere-api';

/** Cohere's /v2/rerank behind the rerank port: its ranking, search units and tokens as Cohere billed them. */
export class CohereRerankModel implements RerankModelPort {
  constructor(private readonly http: UpstreamClient) {}

  async rerank(request: RerankRequest, ctx: CallContext): Promise<RerankResult> {
    const body: CohereRerankBody = {
      model: request.model,
      query: request.query,
      documents: request.documents,
      ...(request.topN !== undefined ? { top_n: request.topN } : {}),
      ...(request.maxTokensPerDoc !== undefined ? { max_tokens_per_doc: request.maxTokensPerDoc } : {}),
    };
    const res = await this.http.request({ method: 'POST', path: '/v2/rerank', json: body, signal: ctx.signal });
    const answer = await res.json(cohereRerankResponseSchema, 'a rerank answer');
    const billed = answer.meta?.billed_units;
    return {
      results: (answer.results ?? []).map((r) => ({ index: r.index ?? 0, relevanceScore: r.relevance_score ?? 0 })),
      usage: { searchUnits: billed?.search_units, inputTokens: billed?.input_tokens },
      warnings: [],
      ...(res.requestId ? { upstreamRequestId: res.requestId } : {}),
    };
  }
}
