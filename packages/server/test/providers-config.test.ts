import { buildConfig, ConfigError, type GatewayConfigFile } from '../src/config';
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
  ])('refuses a wrong provider entry naming the field: %j', (provider, field) => {
    const config = buildConfig('cfg.json', withProvider(provider));
    expect(configError(() => buildProviders(config, { dataDir: '/tmp' }))).toContain(field);
  });
});
