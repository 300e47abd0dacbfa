import { ACCOUNT_RESOURCES_POLICIES, HOSTED_TOOLS_POLICIES } from '@gateway/core';
import { PROVIDER_DESCRIPTORS } from './provider-table';

/** JSON schema of the GATEWAY_CONFIG file. Semantic checks (references between sections) live in config.ts. */
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
    id: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
    type: { enum: PROVIDER_DESCRIPTORS.map((d) => d.type) },
    /** an adapter outside the repository instead of a built-in type (its options are checked against its own schema) */
    module: { type: 'string', minLength: 1 },
    baseUrl: { type: 'string', pattern: '^https?://' },
    apiKey: { type: 'string' },
    options: { type: 'object' },
    hostedTools: { enum: HOSTED_TOOLS_POLICIES },
    accountResources: { enum: ACCOUNT_RESOURCES_POLICIES },
    timeouts: {
      type: 'object',
      additionalProperties: false,
      properties: {
        connectMs: { type: 'integer', minimum: 1 },
        firstByteMs: { type: 'integer', minimum: 1 },
        idleMs: { type: 'integer', minimum: 1 },
        totalMs: { type: 'integer', minimum: 1 },
      },
    },
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
          kind: { enum: ['text', 'image', 'video'] },
          provider: { type: 'string' },
          upstreamModel: { type: 'string', minLength: 1 },
          deployments: { type: 'array', minItems: 1, items: deployment },
          family: { enum: ['2.5', '2.0'] },
          tier: { enum: ['standard', 'fast', 'mini'] },
          displayName: { type: 'string' },
          description: { type: 'string' },
          inputTokenLimit: { type: 'integer', minimum: 1 },
          outputTokenLimit: { type: 'integer', minimum: 1 },
          reasoningEfforts: { type: 'array', items: { type: 'string' } },
          // extra client-facing ids; `*` and `?` make a glob pattern (docs/coding-agents.md)
          aliases: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9*?][A-Za-z0-9_.:@*?/-]{0,127}$' } },
          image: { type: 'object' },
          pricing: {
            type: 'object',
            additionalProperties: false,
            properties: {
              inputPerMillionTokens: { type: 'number', minimum: 0 },
              outputPerMillionTokens: { type: 'number', minimum: 0 },
              perImage: { type: 'number', minimum: 0 },
              perVideoSecond: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  '480p': { type: 'number', minimum: 0 },
                  '720p': { type: 'number', minimum: 0 },
                  '1080p': { type: 'number', minimum: 0 },
                  '4k': { type: 'number', minimum: 0 },
                },
              },
            },
          },
          options: { type: 'object' },
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
          name: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
          models: { type: 'array', items: { type: 'string' } },
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
          key: { type: 'string', pattern: '^sk-[\\x21-\\x7e]{4,200}$' },
          account: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
          group: { type: 'string' },
          // absent: account admin, what a config-file key could always do (docs/admin.md, "Roles")
          role: { enum: ['admin', 'member'] },
        },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxActiveTasksPerAccount: { type: 'integer', minimum: 1 },
        requestsPerMinutePerKey: { type: 'integer', minimum: 0 },
        concurrentStreamsPerKey: { type: 'integer', minimum: 0 },
      },
    },
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
                  account: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
                  role: { enum: ['admin', 'member'] },
                  group: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
                },
              },
            ],
          },
        },
      },
    },
    circuitBreaker: {
      type: 'object',
      additionalProperties: false,
      properties: {
        consecutiveFailures: { type: 'integer', minimum: 1 },
        failureRatio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        windowSize: { type: 'integer', minimum: 1, maximum: 1000 },
        minimumCalls: { type: 'integer', minimum: 1 },
        coolDownMs: { type: 'integer', minimum: 1 },
      },
    },
  },
} as const;
