import {
  bearerAuth,
  createUpstreamProvider,
  SOCKETS_ONLY_OPTIONS_SCHEMA,
  type ProviderDescriptor,
  type ProviderEntry,
  type ProviderPorts,
} from '@gateway/provider-kit';
import { COHERE_DEFAULT_BASE_URL, COHERE_REQUEST_ID_HEADERS } from './cohere-api';
import { CohereEmbeddingModel } from './cohere-embedding-model';
import { describeCohereFailure } from './cohere-error';
import { CohereRerankModel } from './cohere-rerank-model';

/** Cohere v2 embed and rerank; the base URL is the cohere SDK's (no `/v2`: the adapter adds it). */
export function createCohereProvider(config: ProviderEntry): ProviderPorts {
  return createUpstreamProvider(config, {
    defaultBaseUrl: COHERE_DEFAULT_BASE_URL,
    defaultMaxSockets: 64,
    optionsSchema: SOCKETS_ONLY_OPTIONS_SCHEMA,
    authHeaders: bearerAuth,
    requestIdHeaders: COHERE_REQUEST_ID_HEADERS,
    describeFailure: describeCohereFailure,
    ports: (http) => ({ embedding: new CohereEmbeddingModel(http), rerank: new CohereRerankModel(http) }),
  });
}

export const cohereProvider: ProviderDescriptor<'cohere'> = {
  type: 'cohere',
  optionsSchema: SOCKETS_ONLY_OPTIONS_SCHEMA,
  create: (entry) => createCohereProvider(entry),
};
