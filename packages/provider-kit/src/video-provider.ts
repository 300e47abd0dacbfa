import type { VideoModelPort } from '@gateway/core';
import { readOption, rejectUnknownOptions, requireApiKey, requireBaseUrl } from './provider-options';
import { UpstreamClient, type UpstreamClientConfig } from './upstream-client';
import type { UpstreamTimeouts } from './upstream-timeouts';
import type { JsonSchemaObject, ProviderDescriptor } from './provider-descriptor';

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
  /** headers sent on every call, from the configured key (absent: the model signs each call itself) */
  authHeaders?(apiKey: string): Record<string, string>;
  requestIdHeaders: UpstreamClientConfig['requestIdHeaders'];
  describeFailure: UpstreamClientConfig['describeFailure'];
  model(http: UpstreamClient, apiKey: string, options: Record<string, unknown> | undefined): VideoModelPort;
}

/** One video model over one UpstreamClient: the options checked, the key required, the transport closed with it. */
export function createVideoProvider(config: VideoProviderConfig, upstream: VideoUpstream): VideoProvider {
  const o = config.options;
  rejectUnknownOptions(o, Object.keys(upstream.optionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const http = new UpstreamClient({
    baseUrl: requireBaseUrl(config.baseUrl, upstream.defaultBaseUrl),
    headers: upstream.authHeaders?.(apiKey),
    timeouts: config.timeouts,
    requestIdHeaders: upstream.requestIdHeaders,
    describeFailure: upstream.describeFailure,
    maxSockets: readOption.positiveInt(o, 'maxSockets', upstream.defaultMaxSockets ?? 32),
  });
  return { video: upstream.model(http, apiKey, o), close: () => http.destroy(), drain: () => http.drain() };
}

/** Bearer auth with the key itself, the common case. */
export const bearerAuth = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

/** A video provider package's descriptor; `create` also takes a bare config (the package's tests build one directly). */
export interface VideoProviderDescriptor<T extends string> extends ProviderDescriptor<T> {
  create(config: VideoProviderConfig): VideoProvider;
}

/** The descriptor of a video-only upstream: its `options` are the socket count unless it names a schema of its own. */
export function videoProvider<T extends string>(
  type: T,
  upstream: Omit<VideoUpstream, 'optionsSchema'> & { optionsSchema?: JsonSchemaObject & VideoUpstream['optionsSchema'] },
): VideoProviderDescriptor<T> {
  const full = { ...upstream, optionsSchema: upstream.optionsSchema ?? SOCKETS_ONLY_OPTIONS_SCHEMA };
  return { type, optionsSchema: full.optionsSchema, create: (config) => createVideoProvider(config, full) };
}
