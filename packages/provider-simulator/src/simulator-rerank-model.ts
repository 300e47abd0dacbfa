import type { CallContext, RerankModelPort, RerankRequest, RerankResult } from '@gateway/provider-kit';
import { rankDocuments } from './rerank-bm25';

/**
 * `sim-rerank`: BM25 over the request's documents (rerank-bm25.ts). It reports no units: the gateway counts search
 * units by Cohere's rule and estimates tokens, as for any upstream that says nothing.
 */
export class SimulatorRerankModel implements RerankModelPort {
  async rerank(request: RerankRequest, _ctx: CallContext): Promise<RerankResult> {
    const documents = request.maxTokensPerDoc ? request.documents.map((d) => firstTokens(d, request.maxTokensPerDoc!)) : request.documents;
    const ranked = rankDocuments(request.query, documents);
    return { results: ranked.slice(0, request.topN ?? ranked.length), warnings: [] };
  }
}

/** A document cut to about `tokens` tokens (4 characters each, the gateway's estimate), as Cohere cuts long ones. */
function firstTokens(text: string, tokens: number): string {
  return text.length > tokens * 4 ? text.slice(0, tokens * 4) : text;
}
