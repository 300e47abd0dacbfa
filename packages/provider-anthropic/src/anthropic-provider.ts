import {
  ProviderConfigError,
  readOption,
  rejectUnknownOptions,
  requireApiKey,
  requireBaseUrl,
  UpstreamClient,
  type ProviderDescriptor,
  type ProviderEntry,
  type ProviderPorts,
} from '@gateway/provider-kit';
import { ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_REQUEST_ID_HEADERS, ANTHROPIC_VERSION } from './anthropic-api';
import { AnthropicChatModel } from './anthropic-chat-model';
import type { ClientBetaPolicy } from './anthropic-passthrough';
import { describeAnthropicFailure } from './anthropic-error';

const BETA_NAMES = { type: 'array', items: { type: 'string', minLength: 1 } } as const;

/** `options` of an anthropic provider entry. */
export const anthropicOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** max_tokens when the caller set none (Messages requires one) */
    defaultMaxTokens: { type: 'integer', minimum: 1 },
    /** comma list sent as anthropic-beta */
    betas: { type: 'string', minLength: 1 },
    /**
     * The client's own anthropic-beta names (Messages clients only): all forwarded by default; `{allow: [...]}`
     * forwards only those, `{deny: [...]}` all but those.
     */
    clientBetas: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      properties: { allow: BETA_NAMES, deny: BETA_NAMES },
    },
  },
} as const;

/** A policy read from `options.clientBetas`; the config schema has checked its shape when it came from a file. */
function clientBetaPolicy(options: Record<string, unknown> | undefined): ClientBetaPolicy {
  const o = readOption.object(options, 'clientBetas');
  if (!o) return undefined;
  const [key, ...more] = Object.keys(o);
  const list = key === undefined ? undefined : o[key];
  if (
    key === undefined ||
    more.length ||
    !['allow', 'deny'].includes(key) ||
    !Array.isArray(list) ||
    !list.every((b) => typeof b === 'string')
  )
    throw new ProviderConfigError('options.clientBetas', 'must be {allow: [names]} or {deny: [names]}');
  return key === 'allow' ? { allow: list as string[] } : { deny: list as string[] };
}

/** Claude text through the Messages API. The base URL is without `/v1`, as the Anthropic SDK takes it. */
export function createAnthropicProvider(config: ProviderEntry): Required<Pick<ProviderPorts, 'text' | 'close' | 'drain'>> {
  rejectUnknownOptions(config.options, Object.keys(anthropicOptionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const betas = readOption.string(config.options, 'betas');
  const transport = new UpstreamClient({
    baseUrl: requireBaseUrl(config.baseUrl, ANTHROPIC_DEFAULT_BASE_URL),
    // anthropic-beta is set per call: the operator's betas merged with the client's (anthropic-passthrough.ts)
    headers: { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION },
    timeouts: config.timeouts,
    requestIdHeaders: ANTHROPIC_REQUEST_ID_HEADERS,
    describeFailure: describeAnthropicFailure,
  });
  const model = new AnthropicChatModel(transport, {
    defaultMaxTokens: readOption.positiveInt(config.options, 'defaultMaxTokens', 4096),
    betas,
    clientBetas: clientBetaPolicy(config.options),
  });
  return { text: model, close: () => transport.destroy(), drain: () => transport.drain() };
}

export const anthropicProvider: ProviderDescriptor<'anthropic'> = {
  type: 'anthropic',
  optionsSchema: anthropicOptionsSchema,
  create: (entry) => createAnthropicProvider(entry),
};
