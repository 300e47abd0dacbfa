import { envFromProcess } from './gateway-env';
import { checkProductionDemo, StartupError } from './startup-checks';

describe('production and the demo account', () => {
  const check = (vars: NodeJS.ProcessEnv) => () => checkProductionDemo(envFromProcess(vars));
  it('NODE_ENV=production without a config file is refused, unless ALLOW_DEMO_IN_PRODUCTION=true', () => {
    expect(check({ NODE_ENV: 'production' })).toThrow(StartupError);
    expect(check({ NODE_ENV: 'production', ALLOW_DEMO_IN_PRODUCTION: 'true' })).not.toThrow();
    expect(check({ GATEWAY_CONFIG: '/etc/gateway.json', NODE_ENV: 'production' })).not.toThrow();
    expect(check({ NODE_ENV: 'development' })).not.toThrow();
  });
});
