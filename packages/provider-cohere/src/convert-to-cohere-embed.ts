import type { EmbeddingRequest } from '@gateway/provider-kit';
import { COHERE_OUTPUT_DIMENSIONS, type CohereEmbedBody, type CohereInputType } from './cohere-api';

/** Gemini's task types (the core request's hint) in Cohere's input_type; anything else embeds as a document. */
const INPUT_TYPES: Readonly<Record<string, CohereInputType>> = {
  RETRIEVAL_QUERY: 'search_query',
  QUESTION_ANSWERING: 'search_query',
  FACT_VERIFICATION: 'search_query',
  CODE_RETRIEVAL_QUERY: 'search_query',
  RETRIEVAL_DOCUMENT: 'search_document',
  CLASSIFICATION: 'classification',
  CLUSTERING: 'clustering',
};

/**
 * One /v2/embed body. `input_type` is required by Cohere's v3 and later models: a document unless the task says
 * otherwise. Floats are always asked for: the gateway encodes base64 itself. A size embed-v4 cannot produce is
 * asked at full length and shortened by the caller of this function.
 */
export function convertToCohereEmbed(request: EmbeddingRequest, texts: string[]): CohereEmbedBody {
  const inputType = (request.taskType && INPUT_TYPES[request.taskType]) || 'search_document';
  const upstreamDimension = request.dimensions !== undefined && COHERE_OUTPUT_DIMENSIONS.has(request.dimensions);
  return {
    model: request.model,
    input_type: inputType,
    texts,
    embedding_types: ['float'],
    ...(upstreamDimension ? { output_dimension: request.dimensions } : {}),
  };
}
