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
import { KLING_DEFAULT_BASE_URL, KLING_REQUEST_ID_HEADERS } from './kling-api';
import { KlingTokens, parseKlingKey } from './kling-auth';
import { describeKlingFailure } from './kling-error';
import { KlingVideoModel } from './kling-video-model';

export interface KlingProviderConfig {
  /** without `/v1` (default https://api-singapore.klingai.com) */
  baseUrl?: string;
  /** `ACCESS_KEY:SECRET_KEY` */
  apiKey?: string;
  timeouts?: UpstreamTimeouts;
  /** `maxSockets` (default 32) */
  options?: Record<string, unknown>;
  /** tests: the clock the tokens are signed with */
  now?: () => number;
}

export interface KlingProvider {
  video: VideoModelPort;
  close(): void;
  drain(): void;
}

/** `options` of a kling provider entry. */
export const klingOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** sockets open to Kling at once (default 32) */
    maxSockets: { type: 'integer', minimum: 1 },
  },
} as const;

export function createKlingProvider(config: KlingProviderConfig): KlingProvider {
  const o = config.options;
  rejectUnknownOptions(o, Object.keys(klingOptionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const { accessKey, secretKey } = parseKlingKey(apiKey);
  const http = new UpstreamHttp({
    baseUrl: requireBaseUrl(config.baseUrl, KLING_DEFAULT_BASE_URL),
    timeouts: config.timeouts,
    requestIdHeaders: KLING_REQUEST_ID_HEADERS,
    describeFailure: describeKlingFailure,
    secrets: [apiKey, secretKey, accessKey],
    maxSockets: readOption.positiveInt(o, 'maxSockets', 32),
  });
  const video = new KlingVideoModel(http, new KlingTokens(accessKey, secretKey, config.now));
  return { video, close: () => http.destroy(), drain: () => http.drain() };
}

export const klingProvider: ProviderDescriptor<'kling'> = {
  type: 'kling',
  optionsSchema: klingOptionsSchema,
  create: (entry) => createKlingProvider(entry),
};
