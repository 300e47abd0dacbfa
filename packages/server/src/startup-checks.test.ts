import { checkProductionDemo, StartupError } from './startup-checks';

describe('production and the demo account', () => {
  it('NODE_ENV=production without a config file is refused, unless ALLOW_DEMO_IN_PRODUCTION=true', () => {
    expect(() => checkProductionDemo({}, { NODE_ENV: 'production' })).toThrow(StartupError);
    expect(() => checkProductionDemo({}, { NODE_ENV: 'production', ALLOW_DEMO_IN_PRODUCTION: 'true' })).not.toThrow();
    expect(() => checkProductionDemo({ configPath: '/etc/gateway.json' }, { NODE_ENV: 'production' })).not.toThrow();
    expect(() => checkProductionDemo({}, { NODE_ENV: 'development' })).not.toThrow();
  });
});
