import type { RerankRequestBody } from './rerank.request.schema';

/** A document as the caller sent it: a text, or an object (Jina `{text}`, or any record read through `rank_fields`). */
export type SentDocument = string | Record<string, unknown>;

/** What the rerank use case is asked, and what the answer echoes. */
export interface DecodedRerank {
  query: string;
  /** the text each document is ranked by */
  documents: string[];
  topN?: number;
  maxTokensPerDoc?: number;
  /** `/v1/rerank` with `return_documents: true`: each result carries its document */
  returnDocuments: boolean;
  sent: SentDocument[];
}

/**
 * The text an object document is ranked by: the `rank_fields` as `field: value` lines (Cohere v1's rule), else its
 * `text`, else the object as JSON (what `@ai-sdk/cohere` sends for object documents).
 */
export function documentText(doc: SentDocument, rankFields?: readonly string[] | null): string {
  if (typeof doc === 'string') return doc;
  if (rankFields?.length) return rankFields.map((f) => `${f}: ${fieldText(doc[f])}`).join('\n');
  return typeof doc.text === 'string' ? doc.text : JSON.stringify(doc);
}

function fieldText(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
}

/** Either dialect's body (Cohere's is a subset) to the rerank command. */
export function decodeRerankRequest(body: RerankRequestBody): DecodedRerank {
  const sent = body.documents as SentDocument[];
  return {
    query: body.query,
    documents: sent.map((d) => documentText(d, body.rank_fields)),
    ...(body.top_n != null ? { topN: body.top_n } : {}),
    ...(body.max_tokens_per_doc != null ? { maxTokensPerDoc: body.max_tokens_per_doc } : {}),
    returnDocuments: body.return_documents === true,
    sent,
  };
}
