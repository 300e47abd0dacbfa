import type { AccountResourcesPolicy, HostedToolsPolicy } from '@gateway/core';
import {
  AdapterModules,
  createRedactor,
  ProviderConfigError,
  providerSecrets,
  redactingPorts,
  type ProviderDescriptor,
  type ProviderEnvironment,
  type ProviderPorts,
  type Redact,
} from '@gateway/provider-kit';
import { ConfigError, type GatewayConfig, type ProviderConfig } from './config';
import { PROVIDER_DESCRIPTORS } from './provider-table';

const BY_TYPE: ReadonlyMap<string, ProviderDescriptor> = new Map(PROVIDER_DESCRIPTORS.map((d) => [d.type, d]));

interface LiveProvider {
  /** the entry as built; an equal entry on reload keeps these ports */
  fingerprint: string;
  type: string;
  ports: ProviderPorts;
  hostedTools?: HostedToolsPolicy;
  accountResources?: AccountResourcesPolicy;
}

/** A provider entry with its keys sorted, so key order in a stored config never counts as a change. */
function fingerprint(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** The configured upstreams by id. Use cases hold this object; a config reload updates it in place. */
export class ProviderRegistry {
  private live = new Map<string, LiveProvider>();
  /** the redactor of every configured key; ports kept across a reload read the current one through `redact` */
  private redactor: Redact = createRedactor([]);
  private readonly redact: Redact = (text) => this.redactor(text);

  constructor(
    private readonly env: ProviderEnvironment,
    /** adapters loaded from outside the repository (config entries with `module`) */
    private readonly modules: AdapterModules = new AdapterModules(),
  ) {}

  /** Imports the modules `config` names; call before apply() (start-up, reload, validation). */
  async prepare(config: GatewayConfig): Promise<void> {
    await this.modules.load(config.file);
  }

  /** Builds `config`'s providers into a throwaway registry (admin validation): throws what apply() would. */
  async check(config: GatewayConfig): Promise<void> {
    const trial = new ProviderRegistry(this.env, this.modules);
    await trial.prepare(config);
    trial.apply(config);
    trial.close();
  }

  /**
   * Makes the registry serve `config`'s providers. Only entries that changed (or are new) are built; the
   * others keep their ports and sockets. Replaced and removed providers drain: calls in flight finish on
   * the old sockets. All or nothing: if one entry fails to build, nothing changes.
   */
  apply(config: GatewayConfig): void {
    // Every upstream's answers pass the redactor of all configured credentials: one adapter may echo any of them.
    const redactor = createRedactor(config.file.providers.flatMap(providerSecrets));
    const next = new Map<string, LiveProvider>();
    const built: ProviderPorts[] = [];
    try {
      config.file.providers.forEach((p, i) => {
        const print = fingerprint(p);
        const current = this.live.get(p.id);
        if (current?.fingerprint === print) return void next.set(p.id, current);
        const ports =
          p.module === undefined
            ? build(config, p, i, this.env, this.redact)
            : this.modules.build((field, problem) => new ConfigError(config.source, field, problem), p, i, this.env, this.redact);
        built.push(ports);
        const type = p.type ?? this.modules.nameOf(p);
        next.set(p.id, { fingerprint: print, type, ports, hostedTools: p.hostedTools, accountResources: p.accountResources });
      });
    } catch (e) {
      for (const ports of built) ports.close();
      throw e;
    }
    const previous = this.live;
    this.live = next;
    this.redactor = redactor;
    for (const [id, old] of previous) if (next.get(id) !== old) old.ports.drain();
  }

  /** the entry's `hostedTools` policy (core applies the default) */
  readonly hostedToolsPolicy = (id: string): HostedToolsPolicy | undefined => this.live.get(id)?.hostedTools;
  /** the entry's `accountResources` policy (core applies the default, refuse) */
  readonly accountResourcesPolicy = (id: string): AccountResourcesPolicy | undefined => this.live.get(id)?.accountResources;
  readonly text = (id: string) => this.port(id, 'text');
  readonly image = (id: string) => this.port(id, 'image');
  readonly video = (id: string) => this.port(id, 'video');
  readonly embedding = (id: string) => this.port(id, 'embedding');
  readonly rerank = (id: string) => this.port(id, 'rerank');
  readonly moderation = (id: string) => this.port(id, 'moderation');
  readonly speech = (id: string) => this.port(id, 'speech');
  readonly transcription = (id: string) => this.port(id, 'transcription');
  /** a provider's port of one kind of work, if it does that work */
  private port<K extends keyof ProviderPorts>(id: string, kind: K): ProviderPorts[K] | undefined {
    return this.live.get(id)?.ports[kind];
  }
  /** a provider's type (openai, google, ...): traces name the upstream by it */
  readonly typeOf = (id: string): string | undefined => this.live.get(id)?.type;
  close(): void {
    for (const p of this.live.values()) p.ports.close();
  }
}

function build(config: GatewayConfig, p: ProviderConfig, i: number, env: ProviderEnvironment, redact: Redact): ProviderPorts {
  const descriptor = BY_TYPE.get(p.type ?? '');
  if (!descriptor) throw new ConfigError(config.source, `providers.${i}.type`, `provider type "${p.type}" is not in this build`);
  try {
    return redactingPorts(descriptor.create(p, env), redact);
  } catch (e) {
    // A provider refuses its own entry with the field at fault; say which entry it was.
    if (e instanceof ProviderConfigError) throw new ConfigError(config.source, `providers.${i}.${e.field}`, e.problem);
    throw e;
  }
}

export function buildProviders(config: GatewayConfig, env: ProviderEnvironment): ProviderRegistry {
  const registry = new ProviderRegistry(env);
  registry.apply(config);
  return registry;
}

/** buildProviders for configs that may name outside modules; `baseDir` is where relative module paths start. */
export async function loadProviders(config: GatewayConfig, env: ProviderEnvironment, baseDir?: string): Promise<ProviderRegistry> {
  const fromFile = new Set(config.written.providers.flatMap((p) => (p.module === undefined ? [] : [p.module])));
  const registry = new ProviderRegistry(env, new AdapterModules(baseDir, fromFile));
  await registry.prepare(config);
  registry.apply(config);
  return registry;
}
