/**
 * Admin CLI entry point: `npx gateway <command>` (or `npm run gateway -- <command>`). The commands are
 * `@gateway/cli`'s, each a call of the /admin API; this file gives them that API. On the embedded store a running
 * gateway is the only writer, so the CLI calls its API on loopback (credential file in DATA_DIR); otherwise it opens
 * the store and serves the same routes itself on loopback (docs/admin.md).
 */
import { dirname } from 'node:path';
import {
  CatalogueAdministration,
  CLI_AUDIT_CONTEXT,
  envReferencePolicy,
  KeyAdministration,
  ModelCatalogue,
  type CatalogueChanges,
  type EnvReferencePolicy,
  type Group,
  type ModelSpec,
} from '@gateway/core';
import { adminApiAt, isCatalogueCommand, readLocalAdminCredential, runCommandLine, type AdminApi, type CliIo } from '@gateway/cli';
import { dataDirHolder, DataDirLockedError, openDatabase } from '@gateway/store-postgres';
import { createLogger } from '@gateway/observability';
import { openRepositories, responseCacheInDatabase, type Repositories } from './repositories';
import { serveAdminLocally } from './admin/admin-api';
import { ConfigRuntime } from './admin/config-runtime';
import { resealCommand } from './cli-secrets';
import { ConfigError, loadConfig } from './config';
import { envFromProcess, type GatewayEnv } from './gateway-env';
import { loadProviders } from './providers';
import { openCliResponseCache, responseCachePurgeFor } from './wiring/response-cache';

class CatalogueNotSeededError extends Error {}

export function runCli(argv: string[], io: CliIo, env: GatewayEnv = envFromProcess(process.env)): Promise<number> {
  return runCommandLine(argv, io, {
    withAdmin: (command, fn) => withAdmin(env, command, fn),
    reseal: (out) => resealCommand(env, out),
    isRefusal: (e): e is Error => e instanceof ConfigError || e instanceof DataDirLockedError || e instanceof CatalogueNotSeededError,
  });
}

async function withAdmin(env: GatewayEnv, command: string, fn: (admin: AdminApi) => Promise<number>): Promise<number> {
  if (!env.databaseUrl) {
    const credential = readLocalAdminCredential(env.dataDir);
    // the file outlives a crashed gateway: trust it only while its writer still holds the directory
    if (credential && dataDirHolder(env.dataDir) === credential.pid) return fn(adminApiAt(credential));
  }
  // No gateway on this embedded store (the lock now keeps one from starting meanwhile), or PostgreSQL, where every
  // instance reads keys through a cache of KEY_CACHE_TTL_MS and config through a poll of CONFIG_POLL_MS.
  const db = await openDatabase({
    databaseUrl: env.databaseUrl,
    dataDir: env.dataDir,
    schema: env.databaseSchema,
    sealSecret: env.secret,
  });
  try {
    // no key cache: the CLI's process reads each key once
    const stores = openRepositories(db.knex, { ...env, keyCacheTtlMs: 0 }, { clock: () => new Date() });
    const cache =
      command === 'cache:purge' ? await openCliResponseCache(env, createLogger('error'), responseCacheInDatabase(db.knex)) : undefined;
    const local = await serveAdminLocally({
      ...(isCatalogueCommand(command) ? await catalogueAdmin(stores, env) : await accountAdmin(stores, env)),
      responseCachePurge: responseCachePurgeFor(cache?.cache, stores.audit),
    });
    try {
      return await fn(local.api);
    } finally {
      await local.close();
      cache?.close();
    }
  } finally {
    await db.close();
  }
}

/**
 * Catalogue commands validate against the whole config, providers included, like the admin API. They change the
 * database's catalogue and never import the config file: only a gateway's start-up does (docs/operations.md).
 */
async function catalogueAdmin(stores: Repositories, env: GatewayEnv): Promise<LocalAdmin> {
  const config = loadConfig(env.configPath, env.variables);
  const store = stores.config;
  if ((await store.state()).fileHash === null && (await store.entries()).length === 0) {
    throw new CatalogueNotSeededError('The database holds no catalogue yet: start the gateway once (it imports GATEWAY_CONFIG).');
  }
  const runtime = new ConfigRuntime(
    store,
    config,
    await loadProviders(config, env, env.configPath && dirname(env.configPath)),
    env,
    createLogger('error'),
    stores.mcpServers,
  );
  await runtime.reload({ strict: true });
  const envPolicy = envReferencePolicy(
    config.written.providers.map((p) => p.apiKey),
    env.allowedEnv,
  );
  return cliAdmin(stores, env, config.catalogue, runtime, envPolicy);
}

type LocalAdmin = Parameters<typeof serveAdminLocally>[0];

/** The CLI's changes are audited like the admin API's, with the CLI as their author (each route names it again). */
function cliAdmin(
  stores: Repositories,
  env: GatewayEnv,
  catalogue: ModelCatalogue,
  runtime: CatalogueChanges,
  envPolicy?: EnvReferencePolicy,
): LocalAdmin {
  const audited = { audit: stores.audit, author: CLI_AUDIT_CONTEXT };
  return {
    admin: new KeyAdministration({
      ...audited,
      keys: stores.keys,
      quotas: stores.quotas,
      catalogue,
      maxKeysPerAccount: env.maxKeysPerAccount,
    }),
    catalogue: new CatalogueAdministration({ author: CLI_AUDIT_CONTEXT, store: stores.catalogue, changes: runtime, envPolicy }),
  };
}

const catalogueUntouched: CatalogueChanges = {
  validate: () => Promise.reject(new Error('account and key commands do not change the catalogue')),
  reload: () => Promise.reject(new Error('account and key commands do not change the catalogue')),
};

/**
 * Accounts, keys and quotas: no config file, no upstream secrets, no catalogue write. A key's group is checked
 * against the groups in the store (or, before any gateway seeded it, those of the config it will seed).
 */
async function accountAdmin(stores: Repositories, env: GatewayEnv): Promise<LocalAdmin> {
  const store = stores.config;
  const entries = await store.entries();
  const groups: Group[] = entries
    .filter((e) => e.kind === 'group' && e.body !== null)
    .map((e) => ({ name: e.id, models: (e.body!.models as string[]) ?? [] }));
  // the models too (ids, kinds, aliases as the store holds them): a key's --models allowlist is checked against them,
  // as the admin API checks it against the live catalogue
  const models = entries.filter((e) => e.kind === 'model' && e.body !== null).map((e) => ({ ...e.body, id: e.id }) as unknown as ModelSpec);
  const catalogue = entries.length > 0 ? new ModelCatalogue(models, groups) : unseededCatalogue(env);
  return cliAdmin(stores, env, catalogue, catalogueUntouched);
}

function unseededCatalogue(env: GatewayEnv): ModelCatalogue {
  try {
    return loadConfig(env.configPath, env.variables).catalogue;
  } catch (e) {
    if (e instanceof ConfigError) return new ModelCatalogue([], []);
    throw e;
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
    (code) => process.exit(code),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
