import {
  bearerAuth,
  readOption,
  rejectUnknownOptions,
  requireApiKey,
  requireBaseUrl,
  SOCKETS_ONLY_OPTIONS_SCHEMA,
  UpstreamClient,
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
  rejectUnknownOptions(config.options, Object.keys(SOCKETS_ONLY_OPTIONS_SCHEMA.properties));
  const http = new UpstreamClient({
    baseUrl: requireBaseUrl(config.baseUrl, VOYAGE_DEFAULT_BASE_URL),
    headers: bearerAuth(requireApiKey(config.apiKey)),
    timeouts: config.timeouts,
    requestIdHeaders: VOYAGE_REQUEST_ID_HEADERS,
    describeFailure: describeVoyageFailure,
    maxSockets: readOption.positiveInt(config.options, 'maxSockets', 64),
  });
  return {
    embedding: new VoyageEmbeddingModel(http),
    rerank: new VoyageRerankModel(http),
    close: () => http.destroy(),
    drain: () => http.drain(),
  };
}

export const voyageProvider: ProviderDescriptor<'voyage'> = {
  type: 'voyage',
  optionsSchema: SOCKETS_ONLY_OPTIONS_SCHEMA,
  create: (entry) => createVoyageProvider(entry),
};
