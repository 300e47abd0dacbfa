import type { KeyView } from '@gateway/core';
import { adminPaths, type CatalogueKind } from '@gateway/wire-admin';
import { ADAPTER_USAGE } from './adapter-usage';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** One call of the admin API: what every CLI command turns into. */
export interface AdminCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/** The admin API the CLI speaks: a running gateway's, or one it serves itself on loopback. Answers the JSON body. */
export type AdminApi = (call: AdminCall) => Promise<Json>;

type Json = Record<string, any>;

export const USAGE = `usage: gateway <command>
  accounts:create <id> [--name N]      accounts:update <id> --name N      accounts:list
  keys:create --account <id> [--group <g>] [--role admin|member] [key options]   keys:update <key-id> [key options]
  keys:list [--account <id>]           keys:revoke <key-id>
    key options: --name N  --expires-at <ISO date-time|never>  --models a,b|all
                 --rpm N  --tpm N  --streams N   (a limit of 'default' uses the gateway's)
                 --budget <credits|none> [--budget-period daily|monthly|none]
  quota:get <account>                  quota:set <account> <credits|unlimited> [--period daily|monthly|none]
  cache:purge [--model <id>] [--account <id>]   response cache entries of a model, an account, both, or all
  providers|models|groups:list         providers|models|groups:set <id> '<json>'   providers|models|groups:delete <id>
  secrets:reseal                       re-seal stored secrets under GATEWAY_SECRET (the old one in GATEWAY_SECRET_PREVIOUS)
${ADAPTER_USAGE}`;

export const CATALOGUE_KINDS: Record<string, CatalogueKind> = { providers: 'provider', models: 'model', groups: 'group' };

/** Accounts, keys and quotas: they need neither the config file nor upstream secrets, and leave the catalogue alone. */
export const isCatalogueCommand = (command: string) => (command.split(':')[0] ?? '') in CATALOGUE_KINDS;

export const knownCommand = (command: string) =>
  Object.hasOwn(PRINT, command) || (isCatalogueCommand(command) && ['list', 'set', 'delete'].includes(command.split(':')[1] ?? ''));

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

const quotaLine = (q: Json) => `${q.account}\tlimit ${q.credit_limit ?? 'unlimited'}\tused ${q.credits_used}\t${q.period ?? 'total'}`;

/** The admin API call of an account, key or quota command, or the usage line a malformed one prints. */
function accountCall(command: string, args: string[]): AdminCall | string | undefined {
  switch (command) {
    case 'accounts:create':
      return { method: 'POST', path: adminPaths.accounts, body: { id: args[0], name: flag(args, 'name') } };
    case 'accounts:update': {
      const name = flag(args, 'name');
      if (!args[0] || args[0].startsWith('--') || name === undefined) return 'usage: accounts:update <id> --name N';
      return { method: 'PATCH', path: adminPaths.account(args[0]), body: { name } };
    }
    case 'accounts:list':
      return { method: 'GET', path: adminPaths.accounts };
    case 'keys:create':
      return {
        method: 'POST',
        path: adminPaths.keys(),
        body: { account: flag(args, 'account'), group: flag(args, 'group'), ...keyOptions(args) },
      };
    case 'keys:update':
      if (!args[0] || args[0].startsWith('--')) return 'keys:update needs a key id (see keys:list)';
      return { method: 'PATCH', path: adminPaths.key(args[0]), body: keyOptions(args.slice(1)) };
    case 'keys:list':
      return { method: 'GET', path: adminPaths.keys(flag(args, 'account')) };
    case 'keys:revoke':
      if (!args[0]) return 'keys:revoke needs a key id (see keys:list)';
      return { method: 'DELETE', path: adminPaths.key(args[0]) };
    case 'quota:get':
      return { method: 'GET', path: adminPaths.quota(args[0] ?? '') };
    case 'cache:purge':
      return { method: 'DELETE', path: adminPaths.cachePurge({ model: flag(args, 'model'), account: flag(args, 'account') }) };
    case 'quota:set': {
      const limit = args[1] === 'unlimited' ? null : credits(String(args[1]));
      const p = flag(args, 'period');
      return {
        method: 'PUT',
        path: adminPaths.quota(args[0] ?? ''),
        body: { credit_limit: limit, period: p === undefined ? undefined : period(p) },
      };
    }
  }
  return undefined;
}

/** What a command prints from the admin API's answer. */
const PRINT: Record<string, (answer: Json, args: string[]) => string[]> = {
  'accounts:create': (a) => [`account ${a.id} (${a.name})`],
  'accounts:update': (a) => [`account ${a.id} (${a.name})`],
  'accounts:list': (list) => list.data.map((a: Json) => `${a.id}\t${a.name}\t${a.createdAt}`),
  'keys:create': (k) => [`key ${k.id} for ${k.account} (group ${k.group}, role ${k.role}); shown once: ${k.key}`],
  'keys:update': (k) => [keyLine(k as KeyView)],
  'keys:list': (list) => list.data.map((k: KeyView) => keyLine(k)),
  'keys:revoke': (_answer, args) => [`revoked ${args[0]}`],
  'quota:get': (q) => [quotaLine(q)],
  'quota:set': (q) => [quotaLine(q)],
  'cache:purge': (a) => [`purged ${a.purged} response cache entries (model ${a.model ?? 'any'}, account ${a.account ?? 'any'})`],
};

/** The admin API call of a catalogue command, or the usage line a malformed one prints. */
function catalogueCall(command: string, args: string[]): AdminCall | string {
  const [area = '', verb] = command.split(':');
  const kind = CATALOGUE_KINDS[area]!;
  if (verb === 'list') return { method: 'GET', path: adminPaths.catalogue(kind) };
  if (verb === 'delete') return { method: 'DELETE', path: adminPaths.entry(kind, args[0] ?? '') };
  try {
    return { method: 'PUT', path: adminPaths.entry(kind, args[0] ?? ''), body: JSON.parse(args[1] ?? '') };
  } catch {
    return `${command} needs an id and a JSON object`;
  }
}

function printCatalogue(command: string, answer: Json, args: string[]): string[] {
  const [area = '', verb] = command.split(':');
  if (verb === 'list') return (answer.data as Json[]).map((e) => JSON.stringify(e));
  if (verb === 'delete') return [`deleted ${CATALOGUE_KINDS[area]} ${args[0]}`];
  return [JSON.stringify(answer)];
}

/** Runs one known command through the admin API; returns the exit code. A refusal (GatewayError) propagates. */
export async function runCommand(api: AdminApi, command: string, args: string[], io: CliIo): Promise<number> {
  const catalogue = isCatalogueCommand(command);
  const call = catalogue ? catalogueCall(command, args) : accountCall(command, args);
  if (call === undefined) return fail(io, `unknown command "${command}"`);
  if (typeof call === 'string') return fail(io, call);
  const answer = await api(call);
  for (const line of catalogue ? printCatalogue(command, answer, args) : PRINT[command]!(answer, args)) io.out(line);
  return 0;
}

export function fail(io: CliIo, message: string): number {
  io.err(message);
  return 1;
}
