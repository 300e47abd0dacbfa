/** Start-up's keys: the config file's accounts and keys, and the built-in config's demo key, made to exist once. */
import { generateApiKey, hashApiKey } from '../auth';
import type { AuditContext, AuditedChanges } from '../ports/audit-log.port';
import type { KeyRepository, NewKey } from '../ports/key-repository.port';
import { keyView } from './key-settings';

/** A key the config file lists. */
export interface FileKey {
  account: string;
  group: string;
  role?: NewKey['role'];
  key: string;
  /** the key's MCP allow-list, within its group's */
  mcp?: string[];
  /** the key's own guardrail ids, run after its group's (set when the key is first made) */
  guardrails?: string[];
}

/** Characters a config-file key needs after `sk-`: shorter ones are guessable, so start-up stops on them. */
const MIN_CONFIG_KEY_SECRET = 16;

/** The first config-file key that is too short, as a field and a message for ConfigError; null when all are fine. */
export function shortConfigKey(keys: ReadonlyArray<{ key: string }> = []): { field: string; message: string } | null {
  const i = keys.findIndex((k) => k.key.replace(/^sk-/, '').length < MIN_CONFIG_KEY_SECRET);
  if (i < 0) return null;
  return {
    field: `keys.${i}.key`,
    message: `too short: a key needs at least ${MIN_CONFIG_KEY_SECRET} characters after "sk-" (generate one with \`npx gateway keys:create\` or \`openssl rand -hex 16\`)`,
  };
}

const startUp = (source: string): AuditContext => ({ actor: { type: 'config_file', id: source }, requestId: null, address: null });

/** Creates the account unless it exists, with an `account.create` record when it did not. */
async function ensureAccount(audit: AuditedChanges, ctx: AuditContext, id: string, name?: string): Promise<void> {
  await audit.run(ctx, async ({ keys }) => {
    const made = await keys.createAccountIfMissing(id, name);
    const record = made && { action: 'account.create', target: { type: 'account', id }, accountId: id, before: null, after: made };
    return { result: undefined, audit: record };
  });
}

/**
 * Creates the key unless the store knows its hash, as any key's current secret or as one rotated away: a key the
 * file still lists after it was rotated or revoked stays what it became, instead of coming back as a new key.
 */
async function ensureKey(audit: AuditedChanges, ctx: AuditContext, key: NewKey): Promise<void> {
  await audit.run(ctx, async ({ keys }) => {
    const made = await keys.createKeyIfUnknown(key);
    const record = made && {
      action: 'key.create',
      target: { type: 'key', id: made.id },
      accountId: made.accountId,
      before: null,
      after: keyView(made),
    };
    return { result: undefined, audit: record };
  });
}

/** Makes the config file's keys exist (by hash; idempotent), audited as the file (`source`) writing them. */
export async function bootstrapFileKeys(audit: AuditedChanges, source: string, keys: readonly FileKey[]): Promise<void> {
  const ctx = startUp(source);
  for (const k of keys) {
    await ensureAccount(audit, ctx, k.account);
    // The id is random (it must reveal nothing about the key); the insert is idempotent on the hash, so every instance
    // bootstrapping the same file finds the first one's row and names the key alike.
    await ensureKey(audit, ctx, {
      accountId: k.account,
      group: k.group,
      role: k.role ?? 'admin',
      hash: hashApiKey(k.key),
      prefix: k.key.slice(0, 7),
      ...(k.mcp ? { mcp: k.mcp } : {}),
      ...(k.guardrails?.length ? { guardrails: k.guardrails } : {}),
    });
  }
}

/**
 * With the built-in config: a demo account whose key is returned (to be printed) when it is first made,
 * or every time when GATEWAY_DEMO_KEY fixes it. Later starts return null: only the hash is stored.
 */
export async function bootstrapDemoKey(
  stores: { audit: AuditedChanges; keys: Pick<KeyRepository, 'listKeys'> },
  source: string,
  demo: { account: string; group: string },
  fixedKey?: string,
): Promise<string | null> {
  const ctx = startUp(source);
  await ensureAccount(stores.audit, ctx, demo.account, 'Demo account');
  const demoKey = (key: string): NewKey => ({ accountId: demo.account, group: demo.group, hash: hashApiKey(key), prefix: key.slice(0, 7) });
  if (fixedKey) {
    await ensureKey(stores.audit, ctx, demoKey(fixedKey));
    return fixedKey;
  }
  if ((await stores.keys.listKeys(demo.account)).length > 0) return null;
  const key = generateApiKey();
  await ensureKey(stores.audit, ctx, demoKey(key));
  return key;
}
