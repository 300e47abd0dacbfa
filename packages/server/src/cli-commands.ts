import type { Account, AccountQuota, ApiKeyRecord } from '@gateway/core';
import type { ConfigKind } from '@gateway/store-postgres';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** What the CLI needs of the admin side: AdminService in-process, or the running gateway's admin API. */
export interface AdminOps {
  listAccounts(): Promise<Account[]>;
  createAccount(id: unknown, name: unknown): Promise<Account>;
  listKeys(account?: string): Promise<ApiKeyRecord[]>;
  createKey(account: unknown, group: unknown): Promise<ApiKeyRecord & { key: string }>;
  revokeKey(id: string): Promise<void>;
  getQuota(account: string): Promise<AccountQuota>;
  setQuota(account: string, limit: unknown): Promise<AccountQuota>;
  listEntries(kind: ConfigKind): Promise<Array<Record<string, unknown>>>;
  putEntry(kind: ConfigKind, id: string, body: unknown): Promise<Record<string, unknown>>;
  deleteEntry(kind: ConfigKind, id: string): Promise<void>;
}

export const USAGE = `usage: gateway <command>
  accounts:create <id> [--name N]      accounts:list
  keys:create --account <id> [--group <g>]   keys:list [--account <id>]   keys:revoke <key-id>
  quota:get <account>                  quota:set <account> <credits|unlimited>
  providers|models|groups:list         providers|models|groups:set <id> '<json>'   providers|models|groups:delete <id>`;

export const CATALOGUE_KINDS: Record<string, ConfigKind> = { providers: 'provider', models: 'model', groups: 'group' };

/** Accounts, keys and quotas: they need neither the config file nor upstream secrets, and leave the catalogue alone. */
export const isCatalogueCommand = (command: string) => command.split(':')[0] in CATALOGUE_KINDS;

export const knownCommand = (command: string) =>
  ['accounts:create', 'accounts:list', 'keys:create', 'keys:list', 'keys:revoke', 'quota:get', 'quota:set'].includes(command) ||
  (isCatalogueCommand(command) && ['list', 'set', 'delete'].includes(command.split(':')[1] ?? ''));

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

const quotaLine = (q: AccountQuota) => `${q.accountId}\tlimit ${q.limit ?? 'unlimited'}\tused ${q.used}`;

/** Runs one known command; returns the exit code. Errors (GatewayError, ConfigError) propagate to the caller. */
export async function runCommand(admin: AdminOps, command: string, args: string[], io: CliIo): Promise<number> {
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
    case 'quota:get':
      io.out(quotaLine(await admin.getQuota(args[0] ?? '')));
      return 0;
    case 'quota:set': {
      const raw = args[1];
      const limit = raw === 'unlimited' ? null : raw !== undefined && /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
      io.out(quotaLine(await admin.setQuota(args[0] ?? '', limit)));
      return 0;
    }
    case 'keys:revoke':
      if (!args[0]) return fail(io, 'keys:revoke needs a key id (see keys:list)');
      await admin.revokeKey(args[0]);
      io.out(`revoked ${args[0]}`);
      return 0;
  }
  const [area, verb] = command.split(':');
  const kind = CATALOGUE_KINDS[area];
  if (verb === 'list') {
    for (const e of await admin.listEntries(kind)) io.out(JSON.stringify(e));
    return 0;
  }
  if (verb === 'set') {
    let body: unknown;
    try {
      body = JSON.parse(args[1] ?? '');
    } catch {
      return fail(io, `${command} needs an id and a JSON object`);
    }
    io.out(JSON.stringify(await admin.putEntry(kind, args[0] ?? '', body)));
    return 0;
  }
  await admin.deleteEntry(kind, args[0] ?? '');
  io.out(`deleted ${kind} ${args[0]}`);
  return 0;
}

export function fail(io: CliIo, message: string): number {
  io.err(message);
  return 1;
}
