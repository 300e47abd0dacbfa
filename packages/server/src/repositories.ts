import type { Knex } from 'knex';
import {
  KnexAccountAlerts,
  KnexAuditedChanges,
  KnexCatalogueRepository,
  KnexConfigStore,
  KnexKeyRepository,
  KnexQuotaRepository,
  KnexResponseStore,
  KnexSsoSessions,
  KnexTaskRepository,
  KnexUsageQuery,
  KnexWebhookStore,
} from '@gateway/store-postgres';
import type { GatewayEnv } from './gateway-env';
import { CachedKeyRepository } from './key-cache';

/** Every repository over the store, built once per process (the gateway's or the CLI's) and passed where needed. */
export interface Repositories {
  /** cached for KEY_CACHE_TTL_MS when set; an audited change clears the cache */
  keys: KnexKeyRepository | CachedKeyRepository;
  config: KnexConfigStore;
  /** the catalogue's admin writes, each with its audit record */
  catalogue: KnexCatalogueRepository;
  tasks: KnexTaskRepository;
  quotas: KnexQuotaRepository;
  usageQuery: KnexUsageQuery;
  audit: KnexAuditedChanges;
  webhooks: KnexWebhookStore;
  responses: KnexResponseStore;
  alerts: KnexAccountAlerts;
  /** dashboard single sign-on sessions (@gateway/sso) */
  ssoSessions: KnexSsoSessions;
}

export interface RepositoryOptions {
  /** the clock key expiry, budget periods, task times and audit records read */
  clock: () => Date;
  /** seals webhook signing secrets (wiring/webhook-seal in gateway.ts); absent: they cannot be written */
  webhookSeal?: { sealKey?: string; previousSealKey?: string };
}

export function openRepositories(
  knex: Knex,
  env: Pick<GatewayEnv, 'dataDir' | 'secret' | 'previousSecret' | 'keyCacheTtlMs'>,
  { clock, webhookSeal = {} }: RepositoryOptions,
): Repositories {
  const stored = new KnexKeyRepository(knex);
  const keys = env.keyCacheTtlMs ? new CachedKeyRepository(stored, env.keyCacheTtlMs) : stored;
  const config = new KnexConfigStore(knex, { secret: env.secret, previousSecret: env.previousSecret });
  // a change to a key must not be served stale from this instance's cache (other instances: within the TTL)
  const audit = new KnexAuditedChanges(knex, { now: clock, webhookSeal, afterCommit: () => 'clear' in keys && keys.clear() });
  return {
    keys,
    config,
    catalogue: new KnexCatalogueRepository(config, audit),
    tasks: new KnexTaskRepository(knex, { now: clock }),
    quotas: new KnexQuotaRepository(knex, { now: clock }),
    usageQuery: new KnexUsageQuery(knex),
    audit,
    webhooks: new KnexWebhookStore(knex, webhookSeal),
    responses: new KnexResponseStore(knex),
    alerts: new KnexAccountAlerts(knex),
    ssoSessions: new KnexSsoSessions(knex, clock),
  };
}
