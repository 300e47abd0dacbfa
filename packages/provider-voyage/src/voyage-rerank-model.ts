import {
  unsupportedSetting,
  type CallContext,
  type RerankModelPort,
  type RerankRequest,
  type RerankResult,
  type UpstreamClient,
} from '@gateway/provider-kit';
import { voyageRerankResponseSchema, type VoyageRerankBody } from './voyage-api';

/**
 * Voyage's /rerank behind the rerank port (`top_k` is Cohere's `top_n`). Voyage truncates documents to its own
 * context and has no per-document token cap: `max_tokens_per_doc` becomes a warning. It bills tokens, not search
 * units: the gateway counts those.
 */
export class VoyageRerankModel implements RerankModelPort {
  constructor(private readonly http: UpstreamClient) {}

  async rerank(request: RerankRequest, ctx: CallContext): Promise<RerankResult> {
    const body: VoyageRerankBody = {
      query: request.query,
      documents: request.documents,
      model: request.model,
      ...(request.topN !== undefined ? { top_k: request.topN } : {}),
    };
    const res = await this.http.request({ method: 'POST', path: '/rerank', json: body, signal: ctx.signal });
    const answer = await res.json(voyageRerankResponseSchema, 'a rerank answer');
    const results = (answer.data ?? []).map((r) => ({ index: r.index ?? 0, relevanceScore: r.relevance_score ?? 0 }));
    return {
      // Voyage answers best first; sorted again so a reordered answer cannot reach the caller unranked
      results: results.sort((a, b) => b.relevanceScore - a.relevanceScore),
      ...(answer.usage?.total_tokens !== undefined ? { usage: { inputTokens: answer.usage.total_tokens } } : {}),
      warnings:
        request.maxTokensPerDoc !== undefined
          ? [unsupportedSetting('max_tokens_per_doc', 'Voyage truncates documents to its own context')]
          : [],
      ...(res.requestId ? { upstreamRequestId: res.requestId } : {}),
    };
  }
}
