import {
  s,
  type CallContext,
  type RerankModelPort,
  type RerankRequest,
  type RerankResult,
  type UpstreamClient,
  unsupportedSetting,
} from '@gateway/provider-kit';

/** The Jina-shape answer vLLM, Infinity, TEI-compatible servers and Jina itself give. */
const jinaRerankResponseSchema = s.object({
  results: s.array(s.object({ index: s.number(), relevance_score: s.number() })),
  usage: s.object({ total_tokens: s.number(), prompt_tokens: s.number() }),
});

/**
 * `POST <base>/rerank` in Jina's shape (vLLM and Infinity serve it under `/v1`): `top_n`, documents as strings, and
 * `return_documents: false` (the gateway echoes documents itself). These servers take no per-document token cap.
 */
export class JinaRerankModel implements RerankModelPort {
  constructor(
    private readonly http: UpstreamClient,
    private readonly path = '/rerank',
  ) {}

  async rerank(request: RerankRequest, ctx: CallContext): Promise<RerankResult> {
    const body = {
      model: request.model,
      query: request.query,
      documents: request.documents,
      ...(request.topN !== undefined ? { top_n: request.topN } : {}),
      return_documents: false,
    };
    const res = await this.http.request({ method: 'POST', path: this.path, json: body, signal: ctx.signal });
    const answer = await res.json(jinaRerankResponseSchema, 'a rerank answer');
    const tokens = answer.usage?.total_tokens ?? answer.usage?.prompt_tokens;
    return {
      results: (answer.results ?? [])
        .map((r) => ({ index: r.index ?? 0, relevanceScore: r.relevance_score ?? 0 }))
        .sort((a, b) => b.relevanceScore - a.relevanceScore),
      ...(tokens !== undefined ? { usage: { inputTokens: tokens } } : {}),
      warnings:
        request.maxTokensPerDoc !== undefined
          ? [unsupportedSetting('max_tokens_per_doc', 'this server takes no per-document token cap')]
          : [],
      ...(res.requestId ? { upstreamRequestId: res.requestId } : {}),
    };
  }
}
