import {
  bearerAuth,
  createVideoProvider,
  readOption,
  type ProviderDescriptor,
  type VideoProvider,
  type VideoProviderConfig,
} from '@gateway/provider-kit';
import { ARK_DEFAULT_BASE_URL, ARK_REQUEST_ID_HEADERS } from './ark-api';
import { describeArkFailure } from './ark-error';
import { ArkVideoModel } from './ark-video-model';

/** The base URL ends in `/api/v3`, as the Ark SDKs take it; `options`: `batchPolling`, `maxBatch`, `maxSockets`. */
export type ArkProviderConfig = VideoProviderConfig;

export type ArkProvider = VideoProvider;

/** `options` of an ark provider entry. */
export const arkOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** read many tasks with one list call (default true) */
    batchPolling: { type: 'boolean' },
    /** ids per list call (default 100, at most 500 are used) */
    maxBatch: { type: 'integer', minimum: 1 },
    /** sockets open to Ark at once (default 64) */
    maxSockets: { type: 'integer', minimum: 1 },
  },
} as const;

export function createArkProvider(config: ArkProviderConfig): ArkProvider {
  return createVideoProvider(config, {
    defaultBaseUrl: ARK_DEFAULT_BASE_URL,
    defaultMaxSockets: 64,
    optionsSchema: arkOptionsSchema,
    authHeaders: bearerAuth,
    requestIdHeaders: ARK_REQUEST_ID_HEADERS,
    describeFailure: describeArkFailure,
    model: (http, _apiKey, o) =>
      new ArkVideoModel(http, {
        batchPolling: readOption.boolean(o, 'batchPolling', true),
        maxBatch: Math.min(500, readOption.positiveInt(o, 'maxBatch', 100)),
      }),
  });
}

export const arkProvider: ProviderDescriptor<'ark'> = {
  type: 'ark',
  optionsSchema: arkOptionsSchema,
  create: (entry) => createArkProvider(entry),
};
