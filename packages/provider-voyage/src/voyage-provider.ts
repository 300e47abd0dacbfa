import {
  bearerAuth,
  createUpstreamProvider,
  SOCKETS_ONLY_OPTIONS_SCHEMA,
  type ProviderDescriptor,
  type ProviderEntry,
  type ProviderPorts,
} from '@gateway/provider-kit';
import { VOYAGE_DEFAULT_BASE_URL, VOYAGE_REQUEST_ID_HEADERS } from './voyage-api';
import { VoyageEmbeddingModel } from './voyage-embedding-model';
import { describeVoyageFailure } from './voyage-error';
import { VoyageRerankModel } from './voyage-rerank-model';

/** Voyage embeddings and rerank; the base URL includes `/v1`. */
export function createVoyageProvider(config: ProviderEntry): ProviderPorts {
  return createUpstreamProvider(config, {
    defaultBaseUrl: VOYAGE_DEFAULT_BASE_URL,
    defaultMaxSockets: 64,
    optionsSchema: SOCKETS_ONLY_OPTIONS_SCHEMA,
    authHeaders: bearerAuth,
    requestIdHeaders: VOYAGE_REQUEST_ID_HEADERS,
    describeFailure: describeVoyageFailure,
    ports: (http) => ({ embedding: new VoyageEmbeddingModel(http), rerank: new VoyageRerankModel(http) }),
  });
}

export const voyageProvider: ProviderDescriptor<'voyage'> = {
  type: 'voyage',
  optionsSchema: SOCKETS_ONLY_OPTIONS_SCHEMA,
  create: (entry) => createVoyageProvider(entry),
};
