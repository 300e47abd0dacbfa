/**
 * Suites that need a real PostgreSQL or Redis. Without the variable they show as skipped, the reason in their name;
 * with REQUIRE_EXTERNAL_SERVICES=1 (CI) a missing variable fails the run instead, so a suite never silently vanishes.
 */
export type ExternalService = 'TEST_DATABASE_URL' | 'TEST_REDIS_URL';

export function externalServiceUrl(variable: ExternalService, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env[variable] || undefined;
  if (!url && env.REQUIRE_EXTERNAL_SERVICES === '1') {
    throw new Error(`${variable} is not set, but REQUIRE_EXTERNAL_SERVICES=1 says the suites that need it must run.`);
  }
  return url;
}

/** describe() when the service is configured, else describe.skip() named with the reason (the tests list as skipped). */
export function describeWithService(variable: ExternalService, name: string, body: (url: string) => void): void {
  const url = externalServiceUrl(variable);
  if (url) describe(name, () => body(url));
  else describe.skip(`${name} (skipped: ${variable} not set)`, () => body(''));
}
