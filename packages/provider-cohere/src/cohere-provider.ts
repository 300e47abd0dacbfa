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
import { COHERE_DEFAULT_BASE_URL, COHERE_REQUEST_ID_HEADERS } from './cohere-api';
import { CohereEmbeddingModel } from './cohere-embedding-model';
import { describeCohereFailure } from './cohere-error';
import { CohereRerankModel } from './cohere-rerank-model';

/** Cohere v2 embed and rerank; the base URL is the cohere SDK's (no `/v2`: the adapter adds it). */
export function createCohereProvider(config: ProviderEntry): ProviderPorts {
  rejectUnknownOptions(config.options, Object.keys(SOCKETS_ONLY_OPTIONS_SCHEMA.properties));
  const http = new UpstreamClient({
    baseUrl: requireBaseUrl(config.baseUrl, COHERE_DEFAULT_BASE_URL),
    headers: bearerAuth(requireApiKey(config.apiKey)),
    timeouts: config.timeouts,
    requestIdHeaders: COHERE_REQUEST_ID_HEADERS,
    describeFailure: describeCohereFailure,
    maxSockets: readOption.positiveInt(config.options, 'maxSockets', 64),
  });
  return {
    embedding: new CohereEmbeddingModel(http),
    rerank: new CohereRerankModel(http),
    close: () => http.destroy(),
    drain: () => http.drain(),
  };
}

export const cohereProvider: ProviderDescriptor<'cohere'> = {
  type: 'cohere',
  optionsSchema: SOCKETS_ONLY_OPTIONS_SCHEMA,
  create: (entry) => createCohereProvider(entry),
};
