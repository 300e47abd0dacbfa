import { s } from '@gateway/provider-kit';

/** The Voyage shapes the gateway sends and reads (docs.voyageai.com/reference/embeddings-api, /reranker-api). */
export const VOYAGE_DEFAULT_BASE_URL = 'https://api.voyageai.com/v1';
export const VOYAGE_REQUEST_ID_HEADERS = ['x-request-id'];

/** Inputs per /embeddings call (Voyage's list limit); longer requests are sent in batches. */
export const VOYAGE_MAX_INPUTS_PER_EMBED = 1000;
/** The sizes Voyage's Matryoshka models produce upstream; other sizes are shortened by the gateway. */
export const VOYAGE_OUTPUT_DIMENSIONS: ReadonlySet<number> = new Set([256, 512, 1024, 2048]);

export interface VoyageEmbedBody {
  input: string[];
  model: string;
  input_type?: 'query' | 'document';
  output_dimension?: number;
}

export interface VoyageRerankBody {
  query: string;
  documents: readonly string[];
  model: string;
  top_k?: number;
}

const usage = s.object({ total_tokens: s.number() });

export const voyageEmbedResponseSchema = s.object({
  data: s.array(s.object({ embedding: s.array(s.number()), index: s.number() })),
  usage,
});

export const voyageRerankResponseSchema = s.object({
  data: s.array(s.object({ index: s.number(), relevance_score: s.number() })),
  usage,
});

/** Voyage's error body (FastAPI's). */
export interface VoyageErrorBody {
  detail?: unknown;
}
