export { openDatabase, migrationsApplied, type Database, type DatabaseOptions } from './db';
export { DataDirLockedError, dataDirHolder } from './data-dir-lock';
export { KnexKeyRepository } from './knex-key-repository';
export { KnexTaskRepository } from './knex-task-repository';
export { KnexUsageLog } from './knex-usage-log';
export { KnexResponseStore } from './knex-response-store';
export { KnexUsageQuery } from './knex-usage-query';
export { FILE_KEY_MARKER, KnexConfigStore, SecretRequiredError, type ConfigEntry, type ConfigKind } from './knex-config-store';
export { KnexQuotaRepository } from './knex-quota-repository';
