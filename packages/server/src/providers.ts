import type { ImageModelPort, TextModelPort, VideoModelPort } from '@gateway/core';
import { createAnthropicProvider } from '@gateway/provider-anthropic';
import { createArkProvider } from '@gateway/provider-ark';
import { createGoogleProvider } from '@gateway/provider-google';
import { createRedactor, ProviderConfigError, redactingPorts } from '@gateway/provider-kit';
import { createOpenAiProvider } from '@gateway/provider-openai';
import { createOpenAiCompatibleProvider } from '@gateway/provider-openai-compatible';
import { createSimulatorProvider } from '@gateway/provider-simulator';
import { ConfigError, type GatewayConfig, type ProviderConfig } from './config';

/** What one configured upstream can do. */
export interface ProviderPorts {
  text?: TextModelPort;
  image?: ImageModelPort;
  video?: VideoModelPort;
  /** frees sockets and timers */
  close?(): void;
}

export class ProviderRegistry {
  constructor(private ports: Map<string, ProviderPorts>) {}

  /** Takes over another registry's upstreams (config reloads) and frees the ones it had. */
  replaceWith(next: ProviderRegistry): void {
    const old = this.ports;
    this.ports = next.ports;
    for (const p of old.values()) p.close?.();
  }

  text(id: string) {
    return this.ports.get(id)?.text;
  }
  image(id: string) {
    return this.ports.get(id)?.image;
  }
  video(id: string) {
    return this.ports.get(id)?.video;
  }
  close(): void {
    for (const p of this.ports.values()) p.close?.();
  }
}

type Factory = (p: ProviderConfig, env: { dataDir: string }) => ProviderPorts;

/** One factory per provider type: adding a provider is one line here plus its package. */
const FACTORIES: Partial<Record<ProviderConfig['type'], Factory>> = {
  simulator: (p, env) => createSimulatorProvider({ ...(p.options ?? {}), dataDir: env.dataDir }),
  openai: (p) => createOpenAiProvider(p),
  anthropic: (p) => createAnthropicProvider(p),
  google: (p) => createGoogleProvider(p),
  'openai-compatible': (p) => createOpenAiCompatibleProvider(p),
  ark: (p) => createArkProvider(p),
};

export function buildProviders(config: GatewayConfig, env: { dataDir: string }): ProviderRegistry {
  const ports = new Map<string, ProviderPorts>();
  // Every upstream's answers pass the redactor of all configured keys: one adapter may echo any of them.
  const redact = createRedactor(config.file.providers.map((p) => p.apiKey));
  config.file.providers.forEach((p, i) => {
    const factory = FACTORIES[p.type];
    if (!factory)
      throw new ConfigError(config.source, `providers.${i}.type`, `provider type "${p.type}" is not available in this build yet`);
    try {
      ports.set(p.id, redactingPorts(factory(p, env), redact));
    } catch (e) {
      // A provider refuses its own entry with the field at fault; say which entry it was.
      if (e instanceof ProviderConfigError) throw new ConfigError(config.source, `providers.${i}.${e.field}`, e.problem);
      throw e;
    }
  });
  return new ProviderRegistry(ports);
}
