import type { VideoModelPort } from '@gateway/core';
import { readOption, rejectUnknownOptions, requireApiKey, requireBaseUrl } from './provider-options';
import { UpstreamHttp } from './upstream-http';
import type { UpstreamTimeouts } from './upstream-timeouts';
import type { TransportConfig } from './upstream-transport';

/** `options` of a video-only provider whose only setting is its socket count (default 32). */
export const SOCKETS_ONLY_OPTIONS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** sockets open to the upstream at once */
    maxSockets: { type: 'integer', minimum: 1 },
  },
} as const;

/** A provider entry of a video-only upstream, as the config file and the admin API give it. */
export interface VideoProviderConfig {
  baseUrl?: string;
  apiKey?: string;
  timeouts?: UpstreamTimeouts;
  options?: Record<string, unknown>;
}

export interface VideoProvider {
  video: VideoModelPort;
  close(): void;
  drain(): void;
}

/** What differs between video-only upstreams; the rest (options, key, transport, shutdown) is createVideoProvider's. */
export interface VideoUpstream {
  defaultBaseUrl: string;
  /** sockets open to the upstream at once unless `options.maxSockets` says otherwise (default 32) */
  defaultMaxSockets?: number;
  /** the provider's `options` schema: names outside it are refused */
  optionsSchema: { properties: Record<string, unknown> };
  /** headers sent on every call and every string that must never appear in an error, from the configured key */
  auth(apiKey: string): { headers?: Record<string, string>; secrets: string[] };
  requestIdHeaders: TransportConfig['requestIdHeaders'];
  describeFailure: TransportConfig['describeFailure'];
  model(http: UpstreamHttp, apiKey: string, options: Record<string, unknown> | undefined): VideoModelPort;
}

/** One video model over one UpstreamHttp: the options checked, the key required, the transport closed with it. */
export function createVideoProvider(config: VideoProviderConfig, upstream: VideoUpstream): VideoProvider {
  const o = config.options;
  rejectUnknownOptions(o, Object.keys(upstream.optionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const { headers, secrets } = upstream.auth(apiKey);
  const http = new UpstreamHttp({
    baseUrl: requireBaseUrl(config.baseUrl, upstream.defaultBaseUrl),
    headers,
    timeouts: config.timeouts,
    requestIdHeaders: upstream.requestIdHeaders,
    describeFailure: upstream.describeFailure,
    secrets,
    maxSockets: readOption.positiveInt(o, 'maxSockets', upstream.defaultMaxSockets ?? 32),
  });
  return { video: upstream.model(http, apiKey, o), close: () => http.destroy(), drain: () => http.drain() };
}

/** Bearer auth with the key itself, the common case. */
export const bearerAuth = (apiKey: string) => ({ headers: { authorization: `Bearer ${apiKey}` }, secrets: [apiKey] });
