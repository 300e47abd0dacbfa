import type { TextModelPort } from '@gateway/core';
import {
  readOption,
  rejectUnknownOptions,
  requireApiKey,
  requireBaseUrl,
  UpstreamTransport,
  type ProviderDescriptor,
  type UpstreamTimeouts,
} from '@gateway/provider-kit';
import { ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_REQUEST_ID_HEADERS, ANTHROPIC_VERSION } from './anthropic-api';
import { AnthropicChatModel } from './anthropic-chat-model';
import { describeAnthropicFailure } from './anthropic-error';

export interface AnthropicProviderConfig {
  /** without `/v1`, as the Anthropic SDK takes it */
  baseUrl?: string;
  apiKey?: string;
  timeouts?: UpstreamTimeouts;
  /** upstream HTTP client: axios (default) or node */
  transport?: 'axios' | 'node';
  /** `defaultMaxTokens` (4096), `betas` (comma list sent as anthropic-beta) */
  options?: Record<string, unknown>;
}

export interface AnthropicProvider {
  text: TextModelPort;
  close(): void;
  drain(): void;
}

/** `options` of an anthropic provider entry. */
export const anthropicOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** max_tokens when the caller set none (Messages requires one) */
    defaultMaxTokens: { type: 'integer', minimum: 1 },
    /** comma list sent as anthropic-beta */
    betas: { type: 'string', minLength: 1 },
  },
} as const;

export function createAnthropicProvider(config: AnthropicProviderConfig): AnthropicProvider {
  rejectUnknownOptions(config.options, Object.keys(anthropicOptionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const betas = readOption.string(config.options, 'betas');
  const transport = new UpstreamTransport({
    baseUrl: requireBaseUrl(config.baseUrl, ANTHROPIC_DEFAULT_BASE_URL),
    headers: { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION, ...(betas ? { 'anthropic-beta': betas } : {}) },
    timeouts: config.timeouts,
    transport: config.transport,
    requestIdHeaders: ANTHROPIC_REQUEST_ID_HEADERS,
    describeFailure: describeAnthropicFailure,
    secrets: [apiKey],
  });
  const model = new AnthropicChatModel(transport, { defaultMaxTokens: readOption.positiveInt(config.options, 'defaultMaxTokens', 4096) });
  return { text: model, close: () => transport.destroy(), drain: () => transport.drain() };
}

export const anthropicProvider: ProviderDescriptor<'anthropic'> = {
  type: 'anthropic',
  optionsSchema: anthropicOptionsSchema,
  create: (entry) => createAnthropicProvider(entry),
};
