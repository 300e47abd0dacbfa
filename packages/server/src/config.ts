import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import {
  DEFAULT_BREAKER_OPTIONS,
  missingPrice,
  ModelCatalogue,
  type CacheConfig,
  type CircuitBreakerOptions,
  type Deployment,
  guardrailConfigProblem,
  GuardrailSet,
  parseAllowedHosts,
  type GuardrailSpec,
  type Group,
  type ModelKind,
  type ModelPricing,
  type ModelSpec,
  type RegisteredMcpServer,
  checkMcpConfig,
  type McpConfig,
  type McpOAuthConfig,
  type McpServerConfig,
  aliasProblem,
  shortConfigKey,
} from '@gateway/core';
import type { ProviderEntry } from '@gateway/provider-kit';
import type { SsoRoleMapping } from '@gateway/sso';
import { configSchema } from './config.schema';
import { DEFAULT_CONFIG } from './default-config';
import type { ProviderType } from './provider-table';

/** One `providers[]` entry: what every provider factory takes, plus its id and type. */
export interface ProviderConfig extends ProviderEntry {
  id: string;
  /** a built-in provider type, or: */
  type?: ProviderType;
  /** an adapter module outside the repository (adapter-modules.ts); exactly one of `type` and `module` */
  module?: string;
  /** the provider's own batch API for batch lines: accepted; in this version lines still run one by one (wiring/batches.ts) */
  nativeBatch?: boolean;
}

export interface ModelConfig {
  id: string;
  kind: ModelKind;
  provider?: string;
  upstreamModel?: string;
  deployments?: Array<{ provider: string; upstreamModel?: string; priority?: number; weight?: number }>;
  family?: '2.5' | '2.0';
  tier?: 'standard' | 'fast' | 'mini';
  displayName?: string;
  description?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  reasoningEfforts?: string[];
  /** extra client-facing ids and glob patterns routed to this model */
  aliases?: string[];
  image?: Record<string, unknown>;
  pricing?: ModelPricing;
  options?: Record<string, unknown>;
  cache?: CacheConfig;
}

export interface GatewayConfigFile {
  providers: ProviderConfig[];
  models: ModelConfig[];
  groups: Array<Group & { mcp?: string[] }>;
  keys?: Array<{ key: string; account: string; group: string; role?: 'admin' | 'member'; mcp?: string[]; guardrails?: string[] }>;
  /** named guardrails, attached to groups and keys by id (docs/guardrails.md) */
  guardrails?: GuardrailSpec[];
  /** upstream MCP servers behind POST /mcp (docs/mcp.md) */
  mcpServers?: McpServerConfig[];
  /** the OAuth 2.1 option of POST /mcp (docs/mcp.md); absent = off */
  mcpOAuth?: McpOAuthConfig;
  limits?: { maxActiveTasksPerAccount?: number; requestsPerMinutePerKey?: number; concurrentStreamsPerKey?: number };
  /** per-deployment circuit breaker thresholds (docs/routing.md); unset fields keep the defaults */
  circuitBreaker?: Partial<CircuitBreakerOptions>;
  /** dashboard single sign-on: a value of the OIDC role claim -> platform admin, or an account and role (@gateway/sso's sso-grants.ts) */
  sso?: { roles: Record<string, SsoRoleMapping> };
}

export interface GatewayConfig {
  source: string;
  file: GatewayConfigFile;
  /** the document as written: `env:NAME` keys unresolved, which is all that may be stored */
  written: GatewayConfigFile;
  catalogue: ModelCatalogue;
  /** concurrentStreamsPerKey: streaming responses open at once per key (0 = unlimited) */
  limits: { maxActiveTasksPerAccount: number; requestsPerMinutePerKey: number; concurrentStreamsPerKey: number };
  circuitBreaker: CircuitBreakerOptions;
  /** the guardrails and each group's ids, replaced in place on a reload */
  guardrails: GuardrailSet;
  /** the MCP servers and the groups' allow-lists (core's mcp-config.ts) */
  mcp: McpConfig;
}

export class ConfigError extends Error {
  constructor(source: string, field: string, problem: string) {
    super(`Invalid gateway config ${source}: ${field || '(root)'}: ${problem}`);
    this.name = 'ConfigError';
  }
}

const validateShape = new Ajv({ allErrors: false, strict: false }).compile(configSchema);

/** Reads and checks GATEWAY_CONFIG (or the built-in default); every problem names the file, the field and what is wrong. */
export function loadConfig(path: string | undefined, variables: Variables = {}): GatewayConfig {
  if (!path) return buildConfig('(built-in default)', DEFAULT_CONFIG, variables);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(path, '', `cannot read the file (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(path, '', `not valid JSON (${(e as Error).message})`);
  }
  return buildConfig(path, parsed, variables);
}

/** The environment `env:NAME` references resolve in: GatewayEnv.variables (gateway-env.ts). */
export type Variables = Readonly<Record<string, string | undefined>>;

/** registeredMcp: the MCP servers registered through the admin API, which join the file's (core's mcp-config.ts). */
export function buildConfig(
  source: string,
  raw: unknown,
  env: Variables = {},
  registeredMcp: readonly RegisteredMcpServer[] = [],
): GatewayConfig {
  if (!validateShape(raw)) {
    const e = validateShape.errors![0]!;
    const unknown = e.keyword === 'additionalProperties' ? (e.params as { additionalProperty: string }).additionalProperty : undefined;
    // an unknown field is named in the path too, so `providers.1.options.thinkingStyel` points at the typo
    const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = unknown === undefined ? path : path ? `${path}.${unknown}` : unknown;
    const extra =
      unknown !== undefined
        ? ` "${unknown}"`
        : e.keyword === 'enum'
          ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
          : '';
    throw new ConfigError(source, field, `${e.message}${extra}`);
  }
  const file = resolveApiKeys(source, raw as GatewayConfigFile, env);
  const providers = new Set<string>();
  file.providers.forEach((p, i) => {
    if ((p.type === undefined) === (p.module === undefined))
      throw new ConfigError(
        source,
        `providers.${i}`,
        'a provider needs exactly one of "type" (a built-in) and "module" (an outside adapter)',
      );
    if (providers.has(p.id)) throw new ConfigError(source, `providers.${i}.id`, `duplicate provider id "${p.id}"`);
    providers.add(p.id);
  });
  const models: ModelSpec[] = [];
  const seen = new Set<string>();
  file.models.forEach((m, i) => {
    const at = `models.${i}`;
    if (seen.has(m.id)) throw new ConfigError(source, `${at}.id`, `duplicate model id "${m.id}"`);
    seen.add(m.id);
    const deps = m.deployments ?? (m.provider ? [{ provider: m.provider, upstreamModel: m.upstreamModel }] : []);
    if (deps.length === 0) throw new ConfigError(source, at, 'a model needs "provider" or "deployments"');
    if (m.deployments && m.provider) throw new ConfigError(source, at, 'give either "provider" or "deployments", not both');
    deps.forEach((d, j) => {
      if (!providers.has(d.provider)) {
        throw new ConfigError(
          source,
          m.deployments ? `${at}.deployments.${j}.provider` : `${at}.provider`,
          `unknown provider "${d.provider}"`,
        );
      }
    });
    if (m.kind === 'video' && (!m.family || !m.tier))
      throw new ConfigError(source, at, 'a video model needs "family" (2.5 or 2.0) and "tier" (standard, fast or mini)');
    if (m.kind !== 'video' && (m.family || m.tier)) throw new ConfigError(source, at, '"family" and "tier" apply to video models only');
    const deployments: Deployment[] = deps.map((d) => ({
      provider: d.provider,
      upstreamModel: d.upstreamModel ?? m.upstreamModel ?? m.id,
      priority: 'priority' in d && d.priority !== undefined ? d.priority : 0,
      weight: 'weight' in d && d.weight !== undefined ? d.weight : 1,
    }));
    models.push({
      id: m.id,
      kind: m.kind,
      family: m.family,
      tier: m.tier,
      displayName: m.displayName,
      description: m.description,
      inputTokenLimit: m.inputTokenLimit,
      outputTokenLimit: m.outputTokenLimit,
      reasoningEfforts: m.reasoningEfforts,
      aliases: m.aliases,
      image: m.image as ModelSpec['image'],
      pricing: m.pricing,
      deployments,
      options: m.options,
      ...(m.cache ? { cache: m.cache } : {}),
    });
    const unpriced = missingPrice(models[models.length - 1]!); // pricing fails closed (core billing.ts)
    if (unpriced) throw new ConfigError(source, `${at}.pricing`, unpriced);
  });
  const badAlias = aliasProblem(file.models);
  if (badAlias) throw new ConfigError(source, badAlias.field, badAlias.problem);
  const groups = new Set<string>();
  file.groups.forEach((g, i) => {
    if (groups.has(g.name)) throw new ConfigError(source, `groups.${i}.name`, `duplicate group "${g.name}"`);
    groups.add(g.name);
    g.models.forEach((id, j) => {
      if (id !== '*' && !seen.has(id)) throw new ConfigError(source, `groups.${i}.models.${j}`, `unknown model "${id}"`);
    });
  });
  (file.keys ?? []).forEach((k, i) => {
    if (!groups.has(k.group)) throw new ConfigError(source, `keys.${i}.group`, `unknown group "${k.group}"`);
  });
  for (const [value, m] of Object.entries(file.sso?.roles ?? {}))
    if ('account' in m && !groups.has(m.group ?? 'default'))
      throw new ConfigError(source, `sso.roles.${value}.group`, `unknown group "${m.group ?? 'default'}"`);
  const guardrailRefs = [
    ...file.groups.map((g, i) => ({ at: `groups.${i}`, guardrails: g.guardrails })),
    ...(file.keys ?? []).map((k, i) => ({ at: `keys.${i}`, guardrails: k.guardrails })),
  ];
  // parsed here once for the whole config (the environment's own check names a bad value at start-up)
  const rule = { allowedHosts: parseAllowedHosts(env.WEBHOOK_ALLOWED_HOSTS) };
  const badGuardrail = guardrailConfigProblem(file.guardrails ?? [], guardrailRefs, rule);
  if (badGuardrail) throw new ConfigError(source, badGuardrail.field, badGuardrail.problem);
  const shortKey = shortConfigKey(file.keys);
  if (shortKey) throw new ConfigError(source, shortKey.field, shortKey.message);
  const mcp = checkMcpConfig(
    file,
    { variables: env, allowedHosts: rule.allowedHosts },
    (field, problem) => {
      throw new ConfigError(source, field, problem);
    },
    registeredMcp,
  );
  const circuitBreaker = { ...DEFAULT_BREAKER_OPTIONS, ...file.circuitBreaker };
  if (circuitBreaker.minimumCalls > circuitBreaker.windowSize) {
    throw new ConfigError(source, 'circuitBreaker.minimumCalls', `must not exceed windowSize (${circuitBreaker.windowSize})`);
  }
  return {
    source,
    file,
    written: raw as GatewayConfigFile,
    catalogue: new ModelCatalogue(models, file.groups),
    limits: {
      maxActiveTasksPerAccount: file.limits?.maxActiveTasksPerAccount ?? 20,
      requestsPerMinutePerKey: file.limits?.requestsPerMinutePerKey ?? 0,
      concurrentStreamsPerKey: file.limits?.concurrentStreamsPerKey ?? 0,
    },
    circuitBreaker,
    guardrails: new GuardrailSet(file.guardrails ?? [], file.groups),
    mcp,
  };
}

/** `apiKey: "env:NAME"` is read from the environment at start-up, so the file never holds the key. */
function resolveApiKeys(source: string, file: GatewayConfigFile, env: Variables): GatewayConfigFile {
  return {
    ...file,
    providers: file.providers.map((p, i) => {
      const m = /^env:(.+)$/.exec(p.apiKey ?? '');
      if (!m) return p;
      const value = env[m[1]!];
      if (!value) throw new ConfigError(source, `providers.${i}.apiKey`, `environment variable ${m[1]} is not set`);
      return { ...p, apiKey: value };
    }),
  };
}
