import type { VideoModelPort } from '@gateway/core';
import type { UpstreamClient } from './upstream-client';
import { createUpstreamProvider, type UpstreamProviderConfig, type UpstreamSpec } from './upstream-provider';
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
export type VideoProviderConfig = UpstreamProviderConfig;

export interface VideoProvider {
  video: VideoModelPort;
  close(): void;
  drain(): void;
}

/** What differs between video-only upstreams: one video model over the provider's client. */
export interface VideoUpstream extends Omit<UpstreamSpec<unknown>, 'ports'> {
  model(http: UpstreamClient, apiKey: string, options: Record<string, unknown> | undefined): VideoModelPort;
}

/** One video model over one UpstreamClient (createUpstreamProvider). */
export function createVideoProvider(config: VideoProviderConfig, upstream: VideoUpstream): VideoProvider {
  return createUpstreamProvider(config, { ...upstream, ports: (http, apiKey, o) => ({ video: upstream.model(http, apiKey, o) }) });
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
