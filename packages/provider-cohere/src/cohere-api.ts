import { s, type Infer } from '@gateway/provider-kit';

/** The Cohere v2 shapes the gateway sends and reads (docs.cohere.com/reference/embed, /reference/rerank). */
export const COHERE_DEFAULT_BASE_URL = 'https://api.cohere.com';
export const COHERE_REQUEST_ID_HEADERS = ['x-request-id', 'x-cohere-request-id'];

/** Texts per /v2/embed call (Cohere's limit); longer requests are sent in batches. */
export const COHERE_MAX_TEXTS_PER_EMBED = 96;
/** The sizes embed-v4 can shorten its vectors to upstream; other sizes are shortened by the gateway. */
export const COHERE_OUTPUT_DIMENSIONS: ReadonlySet<number> = new Set([256, 512, 1024, 1536]);

export type CohereInputType = 'search_document' | 'search_query' | 'classification' | 'clustering';

export interface CohereEmbedBody {
  model: string;
  input_type: CohereInputType;
  texts: string[];
  embedding_types: ['float'];
  output_dimension?: number;
}

export interface CohereRerankBody {
  model: string;
  query: string;
  documents: readonly string[];
  top_n?: number;
  max_tokens_per_doc?: number;
}

const billed = s.object({ billed_units: s.object({ input_tokens: s.number(), search_units: s.number() }) });

export const cohereEmbedResponseSchema = s.object({
  id: s.string(),
  embeddings: s.object({ float: s.array(s.array(s.number())) }),
  meta: billed,
});

export const cohereRerankResponseSchema = s.object({
  id: s.string(),
  results: s.array(s.object({ index: s.number(), relevance_score: s.number() })),
  meta: billed,
});

export type CohereRerankResponse = Infer<typeof cohereRerankResponseSchema>;

/** Cohere's error body. */
export interface CohereErrorBody {
  id?: string;
  message?: string;
}
