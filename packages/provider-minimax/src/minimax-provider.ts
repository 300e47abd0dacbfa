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
import { MINIMAX_DEFAULT_BASE_URL, MINIMAX_REQUEST_ID_HEADERS } from './minimax-api';
import { describeMiniMaxFailure } from './minimax-error';
import { MiniMaxVideoModel } from './minimax-video-model';

export interface MiniMaxProviderConfig {
  /** without `/v1` (default https://api.minimax.io; mainland China: https://api.minimaxi.com) */
  baseUrl?: string;
  apiKey?: string;
  timeouts?: UpstreamTimeouts;
  /** `maxSockets` (default 32) */
  options?: Record<string, unknown>;
}

export interface MiniMaxProvider {
  video: VideoModelPort;
  close(): void;
  drain(): void;
}

/** `options` of a minimax provider entry. */
export const minimaxOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** sockets open to MiniMax at once (default 32) */
    maxSockets: { type: 'integer', minimum: 1 },
  },
} as const;

export function createMiniMaxProvider(config: MiniMaxProviderConfig): MiniMaxProvider {
  const o = config.options;
  rejectUnknownOptions(o, Object.keys(minimaxOptionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const http = new UpstreamHttp({
    baseUrl: requireBaseUrl(config.baseUrl, MINIMAX_DEFAULT_BASE_URL),
    headers: { authorization: `Bearer ${apiKey}` },
    timeouts: config.timeouts,
    requestIdHeaders: MINIMAX_REQUEST_ID_HEADERS,
    describeFailure: describeMiniMaxFailure,
    secrets: [apiKey],
    maxSockets: readOption.positiveInt(o, 'maxSockets', 32),
  });
  return { video: new MiniMaxVideoModel(http), close: () => http.destroy(), drain: () => http.drain() };
}

export const minimaxProvider: ProviderDescriptor<'minimax'> = {
  type: 'minimax',
  optionsSchema: minimaxOptionsSchema,
  create: (entry) => createMiniMaxProvider(entry),
};
