import { envFromProcess } from './gateway-env';
import { readEnv } from './env.schema';

describe('the environment, checked by one schema', () => {
  it.each([
    ['CONFIG_POLL_MS', 'abc', /^CONFIG_POLL_MS must be a whole number of at least 100; got "abc"\.$/],
    ['CONFIG_POLL_MS', '0', /CONFIG_POLL_MS/],
    ['KEY_CACHE_TTL_MS', '1.5', /KEY_CACHE_TTL_MS/],
    ['PORT', '70000', /^PORT must be a whole number from 0 to 65535/],
    ['SHUTDOWN_GRACE_MS', 'soon', /SHUTDOWN_GRACE_MS/],
    ['QUOTA_CACHE_MS', '-1', /QUOTA_CACHE_MS/],
    ['RATE_LIMIT_ON_REDIS_ERROR', 'sometimes', /^RATE_LIMIT_ON_REDIS_ERROR must be open or closed; got "sometimes"\.$/],
    ['TRUST_PROXY', 'yes', /TRUST_PROXY/],
    ['MODEL_NOT_IN_GROUP_STATUS', '404', /^MODEL_NOT_IN_GROUP_STATUS must be 403 or 503; got "404"\.$/],
  ])('%s=%s stops start-up with one line naming it', (name, value, message) => {
    expect(() => envFromProcess({ [name]: value })).toThrow(message);
  });

  it('keeps the causes operators alert on', () => {
    const reasonOf = (e: NodeJS.ProcessEnv) => {
      try {
        envFromProcess(e);
      } catch (err) {
        return (err as { reason?: string }).reason;
      }
    };
    expect(reasonOf({ RATE_LIMIT_ON_REDIS_ERROR: 'maybe' })).toBe('rate_limit_policy_invalid');
    expect(reasonOf({ MODEL_NOT_IN_GROUP_STATUS: '404' })).toBe('model_not_in_group_status_invalid');
    expect(reasonOf({ CONFIG_POLL_MS: 'abc' })).toBe('env_invalid');
  });

  it('coerces numbers and fills defaults; empty counts as unset', () => {
    const env = envFromProcess({ CONFIG_POLL_MS: '500', KEY_CACHE_TTL_MS: '', PORT: '9001' });
    expect(env).toMatchObject({ configPollMs: 500, keyCacheTtlMs: 2000, quotaCacheMs: 1000, shutdownGraceMs: 10000, port: 9001 });
    expect(readEnv({}).MODEL_NOT_IN_GROUP_STATUS).toBe(503);
  });

  it('reads the flags', () => {
    expect(envFromProcess({ TRUST_PROXY: '1', METRICS_PUBLIC: 'true', RATE_LIMIT_ON_REDIS_ERROR: 'closed' })).toMatchObject({
      trustProxy: true,
      metricsPublic: true,
      rateLimitOnRedisError: 'closed',
    });
  });
});
