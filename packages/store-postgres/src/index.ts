export { openDatabase, migrationsApplied, type Database, type DatabaseOptions } from './db';
export { DataDirLockedError, dataDirHolder } from './data-dir-lock';
export { KnexKeyRepository } from './knex-key-repository';
export { KnexTaskRepository } from './knex-task-repository';
export { KnexUsageLog } from './knex-usage-log';
export { KnexResponseStore } from './knex-response-store';
export { KnexUsageQuery } from './knex-usage-query';
export {
  FILE_KEY_MARKER,
  KnexConfigStore,
  SecretRequiredError,
  type CatalogueSettings,
  type ConfigEntry,
  type ConfigKind,
  type FileImport,
} from './knex-config-store';
export { KnexQuotaRepository } from './knex-quota-repository';
export { DEFAULT_CHUNK_SIZE, KnexContentStore } from './knex-content-store';
export { KnexContentProbes, type ContentProbe } from './knex-content-probes';
export { KnexWebhookStore } from './knex-webhook-store';
export { KnexAccountAlerts } from './knex-account-alerts';
export { resealSecrets, sealedInventory, type SealedInventory } from './secret-reseal';
export { taskChangeFeed, TASK_CHANGES_CHANNEL, type ClosableTaskChangeFeed } from './task-change-feed';
export { KnexAuditedChanges, type KnexChangeStores } from './knex-audited-changes';
export { enforceRetention, type RetentionPolicy } from './retention-sql';
export { KnexSsoSessions, type SsoGrant, type SsoLogin, type SsoSession } from './knex-sso-sessions';
