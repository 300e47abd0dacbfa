import {
  bearerAuth,
  createVideoProvider,
  SOCKETS_ONLY_OPTIONS_SCHEMA,
  type ProviderDescriptor,
  type VideoProvider,
  type VideoProviderConfig,
} from '@gateway/provider-kit';
import { RUNWAY_DEFAULT_BASE_URL, RUNWAY_REQUEST_ID_HEADERS, RUNWAY_VERSION } from './runway-api';
import { describeRunwayFailure } from './runway-error';
import { RunwayVideoModel } from './runway-video-model';

export type RunwayProviderConfig = VideoProviderConfig;

export type RunwayProvider = VideoProvider;

/** `options` of a runway provider entry. */
export const runwayOptionsSchema = SOCKETS_ONLY_OPTIONS_SCHEMA;

export function createRunwayProvider(config: RunwayProviderConfig): RunwayProvider {
  return createVideoProvider(config, {
    defaultBaseUrl: RUNWAY_DEFAULT_BASE_URL,
    optionsSchema: runwayOptionsSchema,
    authHeaders: (apiKey) => ({ ...bearerAuth(apiKey), 'x-runway-version': RUNWAY_VERSION }),
    requestIdHeaders: RUNWAY_REQUEST_ID_HEADERS,
    describeFailure: describeRunwayFailure,
    model: (http) => new RunwayVideoModel(http),
  });
}

export const runwayProvider: ProviderDescriptor<'runway'> = {
  type: 'runway',
  optionsSchema: runwayOptionsSchema,
  create: (entry) => createRunwayProvider(entry),
};
