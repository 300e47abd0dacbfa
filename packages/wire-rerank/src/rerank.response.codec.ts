import type { SentDocument } from './rerank.request.codec';

/** The answer the use case gives the format: ranking best first, and what the call counted. */
export interface RerankAnswer {
  results: ReadonlyArray<{ index: number; relevanceScore: number }>;
  searchUnits: number;
  inputTokens: number;
}

/**
 * One answer both client families parse: Cohere v2's `id`, `results[{index, relevance_score}]` and
 * `meta.billed_units.search_units`, Jina's `model` and `usage`. A result carries `document` only when asked
 * (`return_documents`), never `document: null` (LiteLLM's response schema rejects null).
 */
export function encodeRerankResponse(
  id: string,
  model: string,
  answer: RerankAnswer,
  documents?: readonly SentDocument[],
): Record<string, unknown> {
  return {
    id,
    model,
    results: answer.results.map((r) => ({
      index: r.index,
      relevance_score: r.relevanceScore,
      ...(documents ? { document: echoed(documents[r.index]!) } : {}),
    })),
    meta: {
      api_version: { version: '2' },
      billed_units: { search_units: answer.searchUnits },
      tokens: { input_tokens: answer.inputTokens, output_tokens: 0 },
    },
    usage: { prompt_tokens: answer.inputTokens, total_tokens: answer.inputTokens },
  };
}

/** Jina's echo: `{text}` for a text document, an object document as it was sent. */
function echoed(doc: SentDocument): Record<string, unknown> {
  return typeof doc === 'string' ? { text: doc } : doc;
}
