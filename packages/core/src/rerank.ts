/** Rerank: documents ordered by relevance to a query, whatever the inbound format or upstream. */
import type { Warning } from './warnings';

export interface RerankRequest {
  /** the upstream model name (the use case sets it per deployment) */
  model: string;
  query: string;
  /** the texts ranked; results name them by index */
  documents: readonly string[];
  /** how many results to return; all when absent */
  topN?: number;
  /** Cohere's max_tokens_per_doc: each document is cut to this many tokens */
  maxTokensPerDoc?: number;
}

export interface RerankResult {
  /** best first */
  results: Array<{ index: number; relevanceScore: number }>;
  /** as the upstream reported them; absent fields are counted by the gateway */
  usage?: { searchUnits?: number; inputTokens?: number };
  warnings: Warning[];
  upstreamRequestId?: string;
}
