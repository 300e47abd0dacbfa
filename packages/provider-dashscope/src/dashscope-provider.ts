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
import { DASHSCOPE_DEFAULT_BASE_URL, DASHSCOPE_REQUEST_ID_HEADERS } from './dashscope-api';
import { describeDashScopeFailure } from './dashscope-error';
import { DashScopeVideoModel } from './dashscope-video-model';

export interface DashScopeProviderConfig {
  /** ends in `/api/v1` (default Singapore, https://dashscope-intl.aliyuncs.com/api/v1; Beijing: https://dashscope.aliyuncs.com/api/v1) */
  baseUrl?: string;
  apiKey?: string;
  timeouts?: UpstreamTimeouts;
  /** `maxSockets` (default 32) */
  options?: Record<string, unknown>;
}

export interface DashScopeProvider {
  video: VideoModelPort;
  close(): void;
  drain(): void;
}

/** `options` of a dashscope provider entry. */
export const dashscopeOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** sockets open to DashScope at once (default 32) */
    maxSockets: { type: 'integer', minimum: 1 },
  },
} as const;

export function createDashScopeProvider(config: DashScopeProviderConfig): DashScopeProvider {
  const o = config.options;
  rejectUnknownOptions(o, Object.keys(dashscopeOptionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const http = new UpstreamHttp({
    baseUrl: requireBaseUrl(config.baseUrl, DASHSCOPE_DEFAULT_BASE_URL),
    headers: { authorization: `Bearer ${apiKey}` },
    timeouts: config.timeouts,
    requestIdHeaders: DASHSCOPE_REQUEST_ID_HEADERS,
    describeFailure: describeDashScopeFailure,
    secrets: [apiKey],
    maxSockets: readOption.positiveInt(o, 'maxSockets', 32),
  });
  return { video: new DashScopeVideoModel(http), close: () => http.destroy(), drain: () => http.drain() };
}

export const dashscopeProvider: ProviderDescriptor<'dashscope'> = {
  type: 'dashscope',
  optionsSchema: dashscopeOptionsSchema,
  create: (entry) => createDashScopeProvider(entry),
};
