import type { Account, AccountQuota, KeyAdministration, KeyView } from '@gateway/core';
import { checkBody } from '@gateway/http-kit';
import { adminBodies } from '@gateway/wire-admin';
import type { ConfigKind } from '@gateway/store-postgres';
import { ADAPTER_USAGE } from './adapter-kit/adapter-usage';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** What the CLI needs of the admin side: key administration and catalogue entries in-process, or the running gateway's admin API. */
export interface AdminOps {
  listAccounts(): Promise<Account[]>;
  createAccount(id: unknown, name: unknown): Promise<Account>;
  /** body as PATCH /admin/accounts/{id} takes it */
  updateAccount(id: string, body: unknown): Promise<Account>;
  listKeys(account?: string): Promise<KeyView[]>;
  /** body as POST /admin/keys takes it */
  createKey(body: unknown): Promise<KeyView & { key: string }>;
  /** body as PATCH /admin/keys/{id} takes it */
  updateKey(id: string, body: unknown): Promise<KeyView>;
  revokeKey(id: string): Promise<void>;
  getQuota(account: string): Promise<AccountQuota>;
  setQuota(account: string, limit: unknown, period?: unknown): Promise<AccountQuota>;
  listEntries(kind: ConfigKind): Promise<Array<Record<string, unknown>>>;
  putEntry(kind: ConfigKind, id: string, body: unknown): Promise<Record<string, unknown>>;
  deleteEntry(kind: ConfigKind, id: string): Promise<void>;
}

/**
 * The admin side in this process: accounts, keys and quotas from the core, the catalogue's entries from the config
 * store. Each body is checked against its route's schema first, so the CLI refuses what the admin API refuses.
 */
export function inProcessAdmin(keys: KeyAdministration, catalogue: Pick<AdminOps, 'listEntries' | 'putEntry' | 'deleteEntry'>): AdminOps {
  const { createAccount, updateAccount, setQuota, createKey, updateKey } = adminBodies;
  return {
    listAccounts: () => keys.listAccounts(),
    createAccount: async (id, name) => {
      const body = await checkBody(createAccount, { id, name });
      return keys.createAccount(body.id, body.name);
    },
    updateAccount: async (id, body) => keys.updateAccount(id, await checkBody(updateAccount, body)),
    listKeys: (account) => keys.listKeys(account),
    createKey: async (body) => keys.createKey(await checkBody(createKey, body)),
    updateKey: async (id, body) => keys.updateKey(id, await checkBody(updateKey, body)),
    revokeKey: (id) => keys.revokeKey(id),
    getQuota: (account) => keys.getQuota(account),
    setQuota: async (account, limit, period) => {
      const body = await checkBody(setQuota, { credit_limit: limit, period });
      return keys.setQuota(account, body.credit_limit, body.period);
    },
    listEntries: (kind) => catalogue.listEntries(kind),
    putEntry: (kind, id, body) => catalogue.putEntry(kind, id, body),
    deleteEntry: (kind, id) => catalogue.deleteEntry(kind, id),
  };
}

export const USAGE = `usage: gateway <command>
  accounts:create <id> [--name N]      accounts:update <id> --name N      accounts:list
  keys:create --account <id> [--group <g>] [--role admin|member] [key options]   keys:update <key-id> [key options]
  keys:list [--account <id>]           keys:revoke <key-id>
    key options: --name N  --expires-at <ISO date-time|never>  --models a,b|all
                 --rpm N  --tpm N  --streams N   (a limit of 'default' uses the gateway's)
                 --budget <credits|none> [--budget-period daily|monthly|none]
  quota:get <account>                  quota:set <account> <credits|unlimited> [--period daily|monthly|none]
  providers|models|groups:list         providers|models|groups:set <id> '<json>'   providers|models|groups:delete <id>
  secrets:reseal                       re-seal stored secrets under GATEWAY_SECRET (the old one in GATEWAY_SECRET_PREVIOUS)
${ADAPTER_USAGE}`;

export const CATALOGUE_KINDS: Record<string, ConfigKind> = { providers: 'provider', models: 'model', groups: 'group' };

/** Accounts, keys and quotas: they need neither the config file nor upstream secrets, and leave the catalogue alone. */
export const isCatalogueCommand = (command: string) => (command.split(':')[0] ?? '') in CATALOGUE_KINDS;

export const knownCommand = (command: string) =>
  [
    'accounts:create',
    'accounts:update',
    'accounts:list',
    'keys:create',
    'keys:update',
    'keys:list',
    'keys:revoke',
    'quota:get',
    'quota:set',
  ].includes(command) ||
  (isCatalogueCommand(command) && ['list', 'set', 'delete'].includes(command.split(':')[1] ?? ''));

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** A number of credits from the command line; anything else is sent as text, for the gateway to refuse. */
const credits = (raw: string) => (/^\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw);
const period = (raw: string | undefined) => (raw === undefined || raw === 'none' ? null : raw);

/** The key options given on the command line, as the admin API's body fields (absent options stay absent). */
function keyOptions(args: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const name = flag(args, 'name');
  if (name !== undefined) body.name = name;
  const role = flag(args, 'role');
  if (role !== undefined) body.role = role;
  const expires = flag(args, 'expires-at');
  if (expires !== undefined) body.expires_at = expires === 'never' ? null : expires;
  const models = flag(args, 'models');
  if (models !== undefined) body.models = models === 'all' ? null : models.split(',').filter(Boolean);
  const limits: Record<string, unknown> = {};
  for (const [opt, field] of [
    ['rpm', 'requests_per_minute'],
    ['tpm', 'tokens_per_minute'],
    ['streams', 'concurrent_streams'],
  ] as const) {
    const v = flag(args, opt);
    // not a number: sent as text, so the gateway refuses it with its own message
    if (v !== undefined) limits[field] = v === 'default' ? null : /^\d+$/.test(v) ? Number(v) : v;
  }
  if (Object.keys(limits).length) body.limits = limits;
  const budget = flag(args, 'budget');
  if (budget !== undefined)
    body.budget = budget === 'none' ? null : { credit_limit: credits(budget), period: period(flag(args, 'budget-period')) };
  return body;
}

const limitsText = (l: KeyView['limits']) =>
  Object.entries(l)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}=${v}`)
    .join(',') || 'default limits';

const keyLine = (k: KeyView) =>
  [
    k.id,
    k.account,
    k.group,
    `${k.prefix}…`,
    k.revoked_at ? `revoked ${k.revoked_at}` : 'active',
    k.name ?? '-',
    k.expires_at ? `expires ${k.expires_at}` : 'no expiry',
    k.models ? `models ${k.models.join(',')}` : 'all group models',
    limitsText(k.limits),
    k.budget ? `budget ${k.budget.credits_used}/${k.budget.credit_limit ?? 'unlimited'} ${k.budget.period ?? 'total'}` : 'no budget',
    k.role,
  ].join('\t');

const quotaLine = (q: AccountQuota) => `${q.accountId}\tlimit ${q.limit ?? 'unlimited'}\tused ${q.used}\t${q.period ?? 'total'}`;

/** Runs one known command; returns the exit code. Errors (GatewayError, ConfigError) propagate to the caller. */
export async function runCommand(admin: AdminOps, command: string, args: string[], io: CliIo): Promise<number> {
  switch (command) {
    case 'accounts:create': {
      const a = await admin.createAccount(args[0], flag(args, 'name'));
      io.out(`account ${a.id} (${a.name})`);
      return 0;
    }
    case 'accounts:update': {
      const name = flag(args, 'name');
      if (!args[0] || args[0].startsWith('--') || name === undefined) return fail(io, 'usage: accounts:update <id> --name N');
      const a = await admin.updateAccount(args[0], { name });
      io.out(`account ${a.id} (${a.name})`);
      return 0;
    }
    case 'accounts:list':
      for (const a of await admin.listAccounts()) io.out(`${a.id}\t${a.name}\t${a.createdAt.toISOString()}`);
      return 0;
    case 'keys:create': {
      const k = await admin.createKey({ account: flag(args, 'account'), group: flag(args, 'group'), ...keyOptions(args) });
      io.out(`key ${k.id} for ${k.account} (group ${k.group}, role ${k.role}); shown once: ${k.key}`);
      return 0;
    }
    case 'keys:update':
      if (!args[0] || args[0].startsWith('--')) return fail(io, 'keys:update needs a key id (see keys:list)');
      io.out(keyLine(await admin.updateKey(args[0], keyOptions(args.slice(1)))));
      return 0;
    case 'keys:list':
      for (const k of await admin.listKeys(flag(args, 'account'))) io.out(keyLine(k));
      return 0;
    case 'quota:get':
      io.out(quotaLine(await admin.getQuota(args[0] ?? '')));
      return 0;
    case 'quota:set': {
      const raw = args[1];
      const limit = raw === 'unlimited' ? null : raw !== undefined && /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
      const p = flag(args, 'period');
      io.out(quotaLine(await admin.setQuota(args[0] ?? '', limit, p === undefined ? undefined : period(p))));
      return 0;
    }
    case 'keys:revoke':
      if (!args[0]) return fail(io, 'keys:revoke needs a key id (see keys:list)');
      await admin.revokeKey(args[0]);
      io.out(`revoked ${args[0]}`);
      return 0;
  }
  const [area = '', verb] = command.split(':');
  const kind = CATALOGUE_KINDS[area];
  if (!kind) return fail(io, `unknown command "${command}"`);
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
