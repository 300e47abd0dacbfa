import path from 'node:path';
import type { Knex } from 'knex';
import {
  KnexAccountAlerts,
  KnexAuditedChanges,
  KnexCatalogueRepository,
  KnexConfigStore,
  KnexContentProbes,
  KnexContentStore,
  KnexFileStore,
  KnexBatchStore,
  KnexKeyRepository,
  KnexMcpServerStore,
  KnexQuotaRepository,
  KnexResponseCacheStore,
  KnexResponseStore,
  KnexSsoSessions,
  KnexTaskStatistics,
  KnexTaskRepository,
  KnexUsageLog,
  KnexUsageQuery,
  KnexWebhookStore,
} from '@gateway/store-postgres';
import { CachedKeyRepository, type ContentProbes, type ContentStore } from '@gateway/core';
import type { GatewayEnv } from './gateway-env';
import type { Logger } from '@gateway/observability';

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
  /** MCP servers registered through the admin API (header values sealed like webhook secrets) */
  mcpServers: KnexMcpServerStore;
  responses: KnexResponseStore;
  /** metadata of the Files API's files (the bytes are in the content store) */
  files: KnexFileStore;
  batches: KnexBatchStore;
  alerts: KnexAccountAlerts;
  /** dashboard single sign-on sessions (@gateway/sso) */
  ssoSessions: KnexSsoSessions;
  /** the task figures /metrics reads */
  taskStatistics: KnexTaskStatistics;
}

export interface RepositoryOptions {
  /** the clock key expiry, budget periods, task times and audit records read */
  clock: () => Date;
  /** seals webhook signing secrets and MCP header values (webhookSeal in gateway.ts); absent: they cannot be written */
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
    mcpServers: new KnexMcpServerStore(knex, webhookSeal),
    responses: new KnexResponseStore(knex),
    files: new KnexFileStore(knex),
    batches: new KnexBatchStore(knex),
    alerts: new KnexAccountAlerts(knex),
    ssoSessions: new KnexSsoSessions(knex, clock),
    taskStatistics: new KnexTaskStatistics(knex),
  };
}

/** What instances sharing the database read of each other's content: the content sharing check's probes. */
export const openContentProbes = (knex: Knex): ContentProbes => new KnexContentProbes(knex);

/** The usage log over the store: what a gateway writes each answered request's row to. */
export type UsageLogStore = KnexUsageLog;

/** How many request ids a failed write's log line names (the count is always complete). */
const IDS_IN_LOG = 20;

/**
 * The usage log, spooled under DATA_DIR/usage-spool (docs/reliability.md, "Spend is never lost"); not spooled for a
 * database kept in memory (tests), which nothing could be replayed into. A batch the
 * database refused is logged once at error with its row count and request ids (retries are silent), its recovery
 * once at warn; segments whose owner is provably gone (another replica's live ones never) are replayed now and every 30 s.
 * The daily rollup job runs behind its writes (usage-rollup.ts); a failed run is logged at warn.
 */
export function openUsageLog(knex: Knex, dataDir: string | null, logger: Logger): UsageLogStore {
  const usage = new KnexUsageLog(knex, {
    spoolDir: dataDir ? path.join(dataDir, 'usage-spool') : undefined,
    onError: (e, rows) =>
      logger.error('usage rows not written: kept in the spool, retried until the database takes them', {
        error: (e as Error).message,
        rows: rows.length,
        requestIds: rows.slice(0, IDS_IN_LOG).map((r) => r.requestId),
      }),
    onRecovered: (rows) => logger.warn('usage rows written again after a failure', { rows }),
    onSpoolError: (e) => logger.error('usage spool not writable: rows wait in memory only until it is', { error: (e as Error).message }),
    onRollupError: (e) =>
      logger.warn('usage rollup run failed: reports stay exact, the next run catches up', { error: (e as Error).message }),
  });
  usage.startRecovery(30000, (e) => logger.warn('usage spool replay failed', { error: (e as Error).message }));
  return usage;
}

/** CONTENT_STORE=postgres: videos and thumbnails in the gateway's own database. */
export const contentStoreInDatabase = (knex: Knex): ContentStore => new KnexContentStore(knex);

/** The response cache's entries in the store (docs/cache.md), evicted oldest first past `maxBytes`. */
export const responseCacheInDatabase =
  (knex: Knex) =>
  (maxBytes: number): KnexResponseCacheStore =>
    new KnexResponseCacheStore(knex, { maxBytes });
