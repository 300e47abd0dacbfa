import type { VideoModelPort } from '@gateway/core';
import {
  readOption,
  rejectUnknownOptions,
  requireApiKey,
  requireBaseUrl,
  UpstreamHttp,
  type ProviderDescriptor,
  type UpstreamTimeouts,
} from '@gateway/provider-kit';
import { ARK_DEFAULT_BASE_URL, ARK_REQUEST_ID_HEADERS } from './ark-api';
import { describeArkFailure } from './ark-error';
import { ArkVideoModel } from './ark-video-model';

export interface ArkProviderConfig {
  /** ends in `/api/v3`, as the Ark SDKs take it */
  baseUrl?: string;
  apiKey?: string;
  timeouts?: UpstreamTimeouts;
  /** `batchPolling` (default true), `maxBatch` (ids per list call, default 100), `maxSockets` (default 64) */
  options?: Record<string, unknown>;
}

export interface ArkProvider {
  video: VideoModelPort;
  close(): void;
  drain(): void;
}

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
  const o = config.options;
  rejectUnknownOptions(o, Object.keys(arkOptionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const http = new UpstreamHttp({
    baseUrl: requireBaseUrl(config.baseUrl, ARK_DEFAULT_BASE_URL),
    headers: { authorization: `Bearer ${apiKey}` },
    timeouts: config.timeouts,
    requestIdHeaders: ARK_REQUEST_ID_HEADERS,
    describeFailure: describeArkFailure,
    secrets: [apiKey],
    maxSockets: readOption.positiveInt(o, 'maxSockets', 64),
  });
  const video = new ArkVideoModel(http, {
    batchPolling: readOption.boolean(o, 'batchPolling', true),
    maxBatch: Math.min(500, readOption.positiveInt(o, 'maxBatch', 100)),
  });
  return { video, close: () => http.destroy(), drain: () => http.drain() };
}

export const arkProvider: ProviderDescriptor<'ark'> = {
  type: 'ark',
  optionsSchema: arkOptionsSchema,
  create: (entry) => createArkProvider(entry),
};
