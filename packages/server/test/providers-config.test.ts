import { buildConfig, ConfigError, type GatewayConfigFile } from '../src/config';
import { PROVIDER_DESCRIPTORS } from '../src/provider-table';
import { buildProviders } from '../src/providers';
import { testConfigFile } from './support/test-gateway';

const withProvider = (provider: GatewayConfigFile['providers'][number]): GatewayConfigFile => {
  const base = testConfigFile();
  return { ...base, providers: [...base.providers, provider] };
};

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('provider config', () => {
  it('reads apiKey "env:NAME" from the environment at start-up', () => {
    const c = buildConfig('cfg.json', withProvider({ id: 'oa', type: 'openai', apiKey: 'env:TEST_OA_KEY' }), {
      TEST_OA_KEY: 'sk-from-env-123',
    });
    expect(c.file.providers.find((p) => p.id === 'oa')?.apiKey).toBe('sk-from-env-123');
  });

  it('a missing environment variable is a config error naming the field', () => {
    const msg = configError(() => buildConfig('cfg.json', withProvider({ id: 'oa', type: 'openai', apiKey: 'env:NOPE_NOT_SET' }), {}));
    expect(msg).toContain('cfg.json');
    expect(msg).toContain('providers.1.apiKey');
    expect(msg).toContain('NOPE_NOT_SET');
  });

  it('registers every upstream type with a text port', () => {
    const file = testConfigFile();
    file.providers.push(
      { id: 'oa', type: 'openai', apiKey: 'sk-x' },
      { id: 'an', type: 'anthropic', apiKey: 'sk-y' },
      { id: 'go', type: 'google', apiKey: 'g-z' },
      { id: 'ol', type: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', options: { reasoningField: 'reasoning' } },
    );
    const registry = buildProviders(buildConfig('cfg.json', file), { dataDir: '/tmp' });
    for (const id of ['oa', 'an', 'go', 'ol']) expect(registry.text(id)).toBeDefined();
    registry.close();
  });

  it.each([
    [{ id: 'an', type: 'anthropic' as const }, 'providers.1.apiKey'],
    [{ id: 'ol', type: 'openai-compatible' as const }, 'providers.1.baseUrl'],
    [
      { id: 'ol', type: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:1/v1', options: { maxTokensField: 'tokens' } },
      'providers.1.options.maxTokensField',
    ],
    [{ id: 'go', type: 'google' as const, apiKey: 'k', options: { thinkingStyel: 'level' } }, 'providers.1.options.thinkingStyel'],
    [{ id: 'sim2', type: 'simulator' as const, options: { queuedMs: 'soon' } }, 'providers.1.options.queuedMs'],
    [{ id: 'ark', type: 'ark' as const, apiKey: 'k', options: { maxBatch: 0 } }, 'providers.1.options.maxBatch'],
    [{ id: 'oa', type: 'openai' as const, apiKey: 'k', options: { organisation: 'x' } }, 'providers.1.options.organisation'],
    // every call goes through the one sender: an entry still choosing one is refused (docs/upgrading.md)
    [{ id: 'oa', type: 'openai' as const, apiKey: 'k', transport: 'axios' } as never, 'providers.1.transport'],
  ])('refuses a wrong provider entry naming the field: %j', (provider, field) => {
    // options are checked by the provider's own schema when the config loads; the rest when the provider is built
    expect(configError(() => buildProviders(buildConfig('cfg.json', withProvider(provider)), { dataDir: '/tmp' }))).toContain(field);
  });

  it('takes every provider type of the table, each with its own options schema', () => {
    for (const d of PROVIDER_DESCRIPTORS) {
      const provider = { id: 'p', type: d.type, apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1' };
      expect(() => buildConfig('cfg.json', withProvider(provider))).not.toThrow();
      expect(configError(() => buildConfig('cfg.json', withProvider({ ...provider, options: { surely_unknown: 1 } })))).toContain(
        'providers.1.options.surely_unknown',
      );
    }
  });
});

describe('provider registry on reload', () => {
  const file = () => withProvider({ id: 'oa', type: 'openai', apiKey: 'sk-x', baseUrl: 'http://127.0.0.1:1/v1' });

  it('rebuilds only the entries that changed; key order is no change', () => {
    const registry = buildProviders(buildConfig('cfg.json', file()), { dataDir: '/tmp' });
    const [sim, oa] = [registry.text('sim'), registry.text('oa')];
    const reordered = file();
    reordered.providers[1] = { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-x', type: 'openai', id: 'oa' };
    registry.apply(buildConfig('cfg.json', reordered));
    expect(registry.text('sim')).toBe(sim);
    expect(registry.text('oa')).toBe(oa);

    const changed = file();
    changed.providers[1] = { ...changed.providers[1]!, timeouts: { idleMs: 5000 } };
    registry.apply(buildConfig('cfg.json', changed));
    expect(registry.text('sim')).toBe(sim);
    expect(registry.text('oa')).not.toBe(oa);
    expect(registry.text('oa')).toBeDefined();

    registry.apply(buildConfig('cfg.json', testConfigFile()));
    expect(registry.text('oa')).toBeUndefined();
    registry.close();
  });

  it('changes nothing when one changed entry fails to build', () => {
    const registry = buildProviders(buildConfig('cfg.json', file()), { dataDir: '/tmp' });
    const oa = registry.text('oa');
    const broken = file();
    broken.providers.push({ id: 'an', type: 'anthropic' });
    broken.providers[1] = { ...broken.providers[1]!, timeouts: { idleMs: 5000 } };
    expect(configError(() => registry.apply(buildConfig('cfg.json', broken)))).toContain('providers.2.apiKey');
    expect(registry.text('oa')).toBe(oa);
    expect(registry.text('an')).toBeUndefined();
    registry.close();
  });
});
