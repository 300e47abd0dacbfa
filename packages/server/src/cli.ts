/**
 * Admin CLI against the same store as the gateway: `npx gateway <command>` (or `npm run gateway -- <command>`).
 * It runs the same AdminService as the /admin API.
 */
import { isGatewayError } from '@gateway/core';
import { KnexConfigStore, KnexKeyRepository, KnexQuotaRepository, openDatabase, type ConfigKind } from '@gateway/store-postgres';
import { AdminService } from './admin/admin-service';
import { ConfigRuntime } from './admin/config-runtime';
import { ConfigError, loadConfig } from './config';
import { envFromProcess, type GatewayEnv } from './gateway';
import { createLogger } from './logger';
import { buildProviders } from './providers';
import { envReferencePolicy } from './admin/env-reference-policy';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = `usage: gateway <command>
  accounts:create <id> [--name N]      accounts:list
  keys:create --account <id> [--group <g>]   keys:list [--account <id>]   keys:revoke <key-id>
  quota:get <account>                  quota:set <account> <credits|unlimited>
  providers|models|groups:list         providers|models|groups:set <id> '<json>'   providers|models|groups:delete <id>`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

const KINDS: Record<string, ConfigKind> = { providers: 'provider', models: 'model', groups: 'group' };

export async function runCli(argv: string[], io: CliIo, env: GatewayEnv = envFromProcess()): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    io.out(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig(env.configPath);
  const db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir, schema: env.databaseSchema });
  try {
    const store = new KnexConfigStore(db.knex, { secret: env.secret });
    const runtime = new ConfigRuntime(store, config, buildProviders(config, env), env, createLogger('error'));
    await runtime.bootstrap();
    const admin = new AdminService(
      new KnexKeyRepository(db.knex),
      store,
      runtime,
      config.catalogue,
      new KnexQuotaRepository(db.knex),
      undefined,
      envReferencePolicy(config.written, env.allowedEnv),
    );
    const [area, verb] = command.split(':');
    switch (command) {
      case 'accounts:create': {
        const a = await admin.createAccount(args[0], flag(args, 'name'));
        io.out(`account ${a.id} (${a.name})`);
        return 0;
      }
      case 'accounts:list':
        for (const a of await admin.listAccounts()) io.out(`${a.id}\t${a.name}\t${a.createdAt.toISOString()}`);
        return 0;
      case 'keys:create': {
        const k = await admin.createKey(flag(args, 'account'), flag(args, 'group'));
        io.out(`key ${k.id} for ${k.accountId} (group ${k.group}); shown once: ${k.key}`);
        return 0;
      }
      case 'keys:list':
        for (const k of await admin.listKeys(flag(args, 'account'))) {
          io.out(`${k.id}\t${k.accountId}\t${k.group}\t${k.prefix}…\t${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'}`);
        }
        return 0;
      case 'quota:get': {
        const q = await admin.getQuota(args[0] ?? '');
        io.out(`${q.accountId}\tlimit ${q.limit ?? 'unlimited'}\tused ${q.used}`);
        return 0;
      }
      case 'quota:set': {
        const raw = args[1];
        const limit = raw === 'unlimited' ? null : raw !== undefined && /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
        const q = await admin.setQuota(args[0] ?? '', limit);
        io.out(`${q.accountId}\tlimit ${q.limit ?? 'unlimited'}\tused ${q.used}`);
        return 0;
      }
      case 'keys:revoke':
        if (!args[0]) return fail(io, 'keys:revoke needs a key id (see keys:list)');
        await admin.revokeKey(args[0]);
        io.out(`revoked ${args[0]}`);
        return 0;
    }
    const kind = KINDS[area];
    if (kind && verb === 'list') {
      for (const e of await admin.listEntries(kind)) io.out(JSON.stringify(e));
      return 0;
    }
    if (kind && verb === 'set') {
      let body: unknown;
      try {
        body = JSON.parse(args[1] ?? '');
      } catch {
        return fail(io, `${command} needs an id and a JSON object`);
      }
      io.out(JSON.stringify(await admin.putEntry(kind, args[0] ?? '', body)));
      return 0;
    }
    if (kind && verb === 'delete') {
      await admin.deleteEntry(kind, args[0] ?? '');
      io.out(`deleted ${kind} ${args[0]}`);
      return 0;
    }
    return fail(io, `unknown command "${command}"\n${USAGE}`);
  } catch (e) {
    if (isGatewayError(e) || e instanceof ConfigError) return fail(io, e.message);
    throw e;
  } finally {
    await db.close();
  }
}

function fail(io: CliIo, message: string): number {
  io.err(message);
  return 1;
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
