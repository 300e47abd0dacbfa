import type {
  AccountResourcesPolicy,
  EmbeddingModelPort,
  HostedToolsPolicy,
  ImageModelPort,
  ModerationModelPort,
  RerankModelPort,
  SpeechModelPort,
  TextModelPort,
  TranscriptionModelPort,
  VideoModelPort,
} from '@gateway/core';
import type { UpstreamTimeouts } from './upstream-timeouts';

/** One `providers[]` entry of the gateway config, as every provider factory receives it. */
export interface ProviderEntry {
  /** as the provider's own SDK takes it */
  baseUrl?: string;
  /** already resolved (`env:NAME` read by the server) */
  apiKey?: string;
  /** checked against the descriptor's optionsSchema before the factory runs */
  options?: Record<string, unknown>;
  timeouts?: UpstreamTimeouts;
  /** hosted tools of another format (or none this upstream runs): dropped with a warning (default) or refused */
  hostedTools?: HostedToolsPolicy;
  /** body fields naming upstream-account resources (container, mcp_servers, cachedContent...): refuse (default), drop, allow */
  accountResources?: AccountResourcesPolicy;
}

/** What the server hands every factory besides the entry. */
export interface ProviderEnvironment {
  /** where a provider that renders media locally writes it */
  dataDir: string;
}

/** What one configured upstream can do, and how its sockets are let go. */
export interface ProviderPorts {
  text?: TextModelPort;
  image?: ImageModelPort;
  video?: VideoModelPort;
  embedding?: EmbeddingModelPort;
  rerank?: RerankModelPort;
  moderation?: ModerationModelPort;
  speech?: SpeechModelPort;
  transcription?: TranscriptionModelPort;
  /** frees sockets and timers now (shutdown) */
  close(): void;
  /**
   * The entry was replaced (config reload): idle sockets close now, the rest when the last call in flight
   * ends, so a stream or download that started before the change completes.
   */
  drain(): void;
}

/** A JSON schema object (ajv dialect); plain data so provider packages need no validator. */
export type JsonSchemaObject = { readonly type: 'object' } & { readonly [k: string]: unknown };

/**
 * A provider package's one export the server needs: its config type name, the schema of its `options`,
 * and its factory. The server derives the config schema and the type union from the list of these.
 */
export interface ProviderDescriptor<T extends string = string> {
  readonly type: T;
  readonly optionsSchema: JsonSchemaObject;
  create(entry: ProviderEntry, env: ProviderEnvironment): ProviderPorts;
}
