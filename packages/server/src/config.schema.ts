import { ACCOUNT_RESOURCES_POLICIES, HOSTED_TOOLS_POLICIES, MODEL_KINDS } from '@gateway/core';
import { PROVIDER_DESCRIPTORS } from './provider-table';

/** JSON schema of the GATEWAY_CONFIG file. Semantic checks (references between sections) live in config.ts. */

/** A section whose names are all known: a misspelt setting is refused, never silently ignored. */
const closed = <P extends object>(properties: P) => ({ type: 'object', additionalProperties: false, properties }) as const;
/** provider, group and account names */
const NAME = { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' } as const;
const POSITIVE_INT = { type: 'integer', minimum: 1 } as const;
const PRICE = { type: 'number', minimum: 0 } as const;

/** `cache` on a model or a group (docs/cache.md) */
const CACHE = {
  type: 'object',
  required: ['ttlSeconds'],
  additionalProperties: false,
  properties: {
    ttlSeconds: { type: 'integer', minimum: 1, maximum: 31_536_000 },
    scope: { enum: ['account', 'key'] },
    anyTemperature: { type: 'boolean' },
    toolCalls: { type: 'boolean' },
  },
} as const;

/** A `mcpServers[]` entry (core's mcp-config.ts checks the rest). */
const MCP_SERVER_SCHEMA = {
  type: 'object',
  required: ['id', 'url'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64 },
    url: { type: 'string', minLength: 1, maxLength: 2048 },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    pricePerCall: { type: 'number', minimum: 0 },
  },
} as const;

/** `mcpOAuth`: each authorization server an issuer identifier, https, no query or fragment. */
const MCP_OAUTH_SCHEMA = {
  type: 'object',
  required: ['authorizationServers'],
  additionalProperties: false,
  properties: {
    authorizationServers: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', minLength: 1, maxLength: 2048 } },
  },
} as const;

/** `mcp` on a group and a key. */
const MCP_LIST_SCHEMA = { type: 'array', maxItems: 1000, items: { type: 'string', minLength: 1, maxLength: 200 } } as const;

/** `guardrails` ids on a group or a config-file key (docs/guardrails.md) */
const GUARDRAIL_IDS = { type: 'array', items: NAME } as const;

/** One top-level `guardrails[]` entry; config.ts checks ids, patterns and webhook URLs (core guardrail-config.ts). */
const guardrailEntry = {
  type: 'object',
  required: ['id', 'type'],
  properties: {
    id: NAME,
    type: { enum: ['regex', 'pii', 'max_input', 'moderation', 'webhook'] },
    mode: { enum: ['block', 'mask', 'log'] },
    on: { enum: ['input', 'output', 'both'] },
  },
  allOf: [
    guardrailType('regex', { patterns: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } } }, ['patterns']),
    guardrailType('pii', { entities: { type: 'array', items: { enum: ['email', 'phone', 'card', 'iban', 'ssn', 'secret', 'jwt'] } } }),
    guardrailType('max_input', { maxChars: POSITIVE_INT, maxTokens: POSITIVE_INT }),
    guardrailType('moderation', { model: { type: 'string', minLength: 1 } }),
    guardrailType(
      'webhook',
      { url: { type: 'string', minLength: 1 }, timeoutMs: { type: 'integer', minimum: 1, maximum: 60_000 }, failOpen: { type: 'boolean' } },
      ['url'],
    ),
  ],
} as const;

/** A type's own fields: required ones, and no field of another type (a misspelt option is refused). */
function guardrailType(type: string, properties: Record<string, unknown>, required: string[] = []) {
  return {
    if: { properties: { type: { const: type } } },
    then: { required, additionalProperties: false, properties: { id: true, type: true, mode: true, on: true, ...properties } },
  };
}

const deployment = {
  type: 'object',
  required: ['provider'],
  additionalProperties: false,
  properties: {
    provider: { type: 'string', minLength: 1 },
    upstreamModel: { type: 'string', minLength: 1 },
    priority: { type: 'integer', minimum: 0 },
    weight: { type: 'number', exclusiveMinimum: 0 },
  },
};

/** One `providers[]` entry: the type names and each type's `options` schema come from the provider table. */
const providerEntry = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: {
    id: NAME,
    type: { enum: PROVIDER_DESCRIPTORS.map((d) => d.type) },
    /** an adapter outside the repository instead of a built-in type (its options are checked against its own schema) */
    module: { type: 'string', minLength: 1 },
    baseUrl: { type: 'string', pattern: '^https?://' },
    apiKey: { type: 'string' },
    options: { type: 'object' },
    hostedTools: { enum: HOSTED_TOOLS_POLICIES },
    accountResources: { enum: ACCOUNT_RESOURCES_POLICIES },
    timeouts: closed({ connectMs: POSITIVE_INT, firstByteMs: POSITIVE_INT, idleMs: POSITIVE_INT, totalMs: POSITIVE_INT }),
    /** send batch lines to the provider's own batch API (docs/formats/batches.md): accepted, lines still run one by one */
    nativeBatch: { type: 'boolean' },
  },
  allOf: PROVIDER_DESCRIPTORS.map((d) => ({
    if: { required: ['type'], properties: { type: { const: d.type } } },
    then: { properties: { options: d.optionsSchema } },
  })),
} as const;

export const configSchema = {
  type: 'object',
  required: ['providers', 'models', 'groups'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    providers: { type: 'array', items: providerEntry },
    models: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'kind'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$' },
          kind: { enum: MODEL_KINDS },
          provider: { type: 'string' },
          upstreamModel: { type: 'string', minLength: 1 },
          deployments: { type: 'array', minItems: 1, items: deployment },
          family: { enum: ['2.5', '2.0'] },
          tier: { enum: ['standard', 'fast', 'mini'] },
          displayName: { type: 'string' },
          description: { type: 'string' },
          inputTokenLimit: POSITIVE_INT,
          outputTokenLimit: POSITIVE_INT,
          reasoningEfforts: { type: 'array', items: { type: 'string' } },
          // extra client-facing ids; `*` and `?` make a glob pattern (docs/coding-agents.md)
          aliases: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9*?][A-Za-z0-9_.:@*?/-]{0,127}$' } },
          image: { type: 'object' },
          pricing: closed({
            inputPerMillionTokens: PRICE,
            outputPerMillionTokens: PRICE,
            cachedInputPerMillionTokens: PRICE,
            cacheWritePerMillionTokens: PRICE,
            perImage: PRICE,
            perVideoSecond: closed({ '480p': PRICE, '720p': PRICE, '1080p': PRICE, '4k': PRICE }),
            perMillionCharacters: PRICE,
            perAudioMinute: PRICE,
            perThousandSearches: PRICE,
            batchMultiplier: { type: 'number', exclusiveMinimum: 0, maximum: 10 },
            cacheHitMultiplier: { type: 'number', minimum: 0, maximum: 10 },
          }),
          options: { type: 'object' },
          cache: CACHE,
        },
      },
    },
    groups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'models'],
        additionalProperties: false,
        properties: {
          mcp: MCP_LIST_SCHEMA,
          name: NAME,
          models: { type: 'array', items: { type: 'string' } },
          cache: CACHE,
          guardrails: GUARDRAIL_IDS,
        },
      },
    },
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'account', 'group'],
        additionalProperties: false,
        properties: {
          mcp: MCP_LIST_SCHEMA,
          key: { type: 'string', pattern: '^sk-[\\x21-\\x7e]{4,200}$' },
          account: NAME,
          group: { type: 'string' },
          // absent: account admin, what a config-file key could always do (docs/admin.md, "Roles")
          role: { enum: ['admin', 'member'] },
          guardrails: GUARDRAIL_IDS,
        },
      },
    },
    guardrails: { type: 'array', items: guardrailEntry },
    limits: closed({
      maxActiveTasksPerAccount: POSITIVE_INT,
      requestsPerMinutePerKey: { type: 'integer', minimum: 0 },
      concurrentStreamsPerKey: { type: 'integer', minimum: 0 },
    }),
    mcpServers: { type: 'array', items: MCP_SERVER_SCHEMA },
    mcpOAuth: MCP_OAUTH_SCHEMA,
    sso: {
      type: 'object',
      required: ['roles'],
      additionalProperties: false,
      properties: {
        // a value of the OIDC_ROLE_CLAIM claim -> what people carrying it may do (@gateway/sso, sso-grants.ts)
        roles: {
          type: 'object',
          additionalProperties: {
            oneOf: [
              { type: 'object', required: ['platformAdmin'], additionalProperties: false, properties: { platformAdmin: { const: true } } },
              {
                type: 'object',
                required: ['account', 'role'],
                additionalProperties: false,
                properties: {
                  account: NAME,
                  role: { enum: ['admin', 'member'] },
                  group: NAME,
                },
              },
            ],
          },
        },
      },
    },
    circuitBreaker: closed({
      consecutiveFailures: POSITIVE_INT,
      failureRatio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      windowSize: { type: 'integer', minimum: 1, maximum: 1000 },
      minimumCalls: POSITIVE_INT,
      coolDownMs: POSITIVE_INT,
    }),
  },
} as const;
