import { invalid } from '../errors';

/**
 * Which environment variables an admin may name as a provider key (`apiKey: "env:NAME"`). An admin
 * chooses the provider's URL too, so naming any variable would send it anywhere: only the variables the
 * config file already names as keys, or those the operator lists in GATEWAY_ALLOWED_ENV (names or
 * `PREFIX_*`), and never the gateway's own secrets.
 */
const NEVER = new Set(['DATABASE_URL', 'REDIS_URL', 'GATEWAY_SECRET', 'GATEWAY_ADMIN_KEY', 'GATEWAY_DEMO_KEY']);

export interface EnvReferencePolicy {
  /** throws invalid_request naming the variable when an admin may not use it */
  check(name: string): void;
}

/** `fileKeys`: the config file's providers' `apiKey` values as written; `allowedEnv`: GATEWAY_ALLOWED_ENV. */
export function envReferencePolicy(fileKeys: ReadonlyArray<string | undefined>, allowedEnv: string | undefined): EnvReferencePolicy {
  const referenced = new Set(fileKeys.map((k) => /^env:(.+)$/.exec(k ?? '')?.[1]).filter((n): n is string => n !== undefined));
  const allowed = (allowedEnv ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const permitted = (name: string) =>
    referenced.has(name) || allowed.some((a) => (a.endsWith('*') ? name.startsWith(a.slice(0, -1)) : a === name));
  return {
    check(name) {
      if (NEVER.has(name) || name.startsWith('GATEWAY_') || !permitted(name)) {
        throw invalid(
          'env_not_allowed',
          `"apiKey": "env:${name.slice(0, 64)}" names an environment variable the admin API may not use; allowed are the variables the config file names as keys and those in GATEWAY_ALLOWED_ENV.`,
          'apiKey',
        );
      }
    },
  };
}
