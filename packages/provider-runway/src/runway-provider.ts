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
import { RUNWAY_DEFAULT_BASE_URL, RUNWAY_REQUEST_ID_HEADERS, RUNWAY_VERSION } from './runway-api';
import { describeRunwayFailure } from './runway-error';
import { RunwayVideoModel } from './runway-video-model';

export interface RunwayProviderConfig {
  /** without `/v1` (default https://api.dev.runwayml.com) */
  baseUrl?: string;
  apiKey?: string;
  timeouts?: UpstreamTimeouts;
  /** `maxSockets` (default 32) */
  options?: Record<string, unknown>;
}

export interface RunwayProvider {
  video: VideoModelPort;
  close(): void;
  drain(): void;
}

/** `options` of a runway provider entry. */
export const runwayOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** sockets open to Runway at once (default 32) */
    maxSockets: { type: 'integer', minimum: 1 },
  },
} as const;

export function createRunwayProvider(config: RunwayProviderConfig): RunwayProvider {
  const o = config.options;
  rejectUnknownOptions(o, Object.keys(runwayOptionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const http = new UpstreamHttp({
    baseUrl: requireBaseUrl(config.baseUrl, RUNWAY_DEFAULT_BASE_URL),
    headers: { authorization: `Bearer ${apiKey}`, 'x-runway-version': RUNWAY_VERSION },
    timeouts: config.timeouts,
    requestIdHeaders: RUNWAY_REQUEST_ID_HEADERS,
    describeFailure: describeRunwayFailure,
    secrets: [apiKey],
    maxSockets: readOption.positiveInt(o, 'maxSockets', 32),
  });
  return { video: new RunwayVideoModel(http), close: () => http.destroy(), drain: () => http.drain() };
}

export const runwayProvider: ProviderDescriptor<'runway'> = {
  type: 'runway',
  optionsSchema: runwayOptionsSchema,
  create: (entry) => createRunwayProvider(entry),
};
