import { readOption, rejectUnknownOptions, requireApiKey, requireBaseUrl } from './provider-options';
import { UpstreamClient, type UpstreamClientConfig } from './upstream-client';
import type { UpstreamTimeouts } from './upstream-timeouts';

/** A provider entry as the config file and the admin API give it. */
export interface UpstreamProviderConfig {
  baseUrl?: string;
  apiKey?: string;
  timeouts?: UpstreamTimeouts;
  options?: Record<string, unknown>;
}

/** What differs between upstreams served over one UpstreamClient; the rest (options, key, transport, shutdown) is createUpstreamProvider's. */
export interface UpstreamSpec<P> {
  defaultBaseUrl: string;
  /** sockets open to the upstream at once unless `options.maxSockets` says otherwise (default 32) */
  defaultMaxSockets?: number;
  /** the provider's `options` schema: names outside it are refused */
  optionsSchema: { properties: Record<string, unknown> };
  /** headers sent on every call, from the configured key (absent: the model signs each call itself) */
  authHeaders?(apiKey: string): Record<string, string>;
  requestIdHeaders: UpstreamClientConfig['requestIdHeaders'];
  describeFailure: UpstreamClientConfig['describeFailure'];
  /** the ports the provider serves, over its one client */
  ports(http: UpstreamClient, apiKey: string, options: Record<string, unknown> | undefined): P;
}

/** A provider's ports over one UpstreamClient: the options checked, the key required, the client closed with them. */
export function createUpstreamProvider<P extends object>(
  config: UpstreamProviderConfig,
  upstream: UpstreamSpec<P>,
): P & { close(): void; drain(): void } {
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
  return { ...upstream.ports(http, apiKey, o), close: () => http.destroy(), drain: () => http.drain() };
}
