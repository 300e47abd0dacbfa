import { generateApiKey, hashApiKey, keyView, type AuditContext, type NewKey } from '@gateway/core';
import type { GatewayConfig } from './config';
import { DEMO_ACCOUNT, DEMO_GROUP } from './default-config';
import type { Repositories } from './repositories';

/** What bootstrap writes through: each account and key it creates is an audited change (docs/admin.md, "Audit"). */
type BootstrapStores = Pick<Repositories, 'audit'>;

const startUp = (source: string): AuditContext => ({ actor: { type: 'config_file', id: source }, requestId: null, address: null });

/** Creates the account unless it exists, with an `account.create` record when it did not. */
async function ensureAccount(stores: BootstrapStores, ctx: AuditContext, id: string, name?: string): Promise<void> {
  await stores.audit.run(ctx, async ({ keys }) => {
    const made = await keys.createAccountIfMissing(id, name);
    const audit = made && { action: 'account.create', target: { type: 'account', id }, accountId: id, before: null, after: made };
    return { result: undefined, audit };
  });
}

/**
 * Creates the key unless the store knows its hash, as any key's current secret or as one rotated away: a key the
 * file still lists after it was rotated or revoked stays what it became, instead of coming back as a new key.
 */
async function ensureKey(stores: BootstrapStores, ctx: AuditContext, key: NewKey): Promise<void> {
  await stores.audit.run(ctx, async ({ keys }) => {
    const made = await keys.createKeyIfUnknown(key);
    const audit = made && {
      action: 'key.create',
      target: { type: 'key', id: made.id },
      accountId: made.accountId,
      before: null,
      after: keyView(made),
    };
    return { result: undefined, audit };
  });
}

/** Makes the config file's keys exist (by hash; idempotent). */
export async function bootstrapConfigKeys(stores: BootstrapStores, config: GatewayConfig): Promise<void> {
  const ctx = startUp(config.source);
  for (const k of config.file.keys ?? []) {
    await ensureAccount(stores, ctx, k.account);
    // The id is random (it must reveal nothing about the key); the insert is idempotent on the hash, so every instance
    // bootstrapping the same file finds the first one's row and names the key alike.
    await ensureKey(stores, ctx, {
      accountId: k.account,
      group: k.group,
      role: k.role ?? 'admin',
      hash: hashApiKey(k.key),
      prefix: k.key.slice(0, 7),
    });
  }
}

/**
 * With the built-in config: a demo account whose key is returned (to be printed) when it is first made,
 * or every time when GATEWAY_DEMO_KEY fixes it. Later starts return null: only the hash is stored.
 */
export async function bootstrapDemoKey(
  stores: Pick<Repositories, 'audit' | 'keys'>,
  config: GatewayConfig,
  fixedKey?: string,
): Promise<string | null> {
  const ctx = startUp(config.source);
  await ensureAccount(stores, ctx, DEMO_ACCOUNT, 'Demo account');
  const demoKey = (key: string): NewKey => ({ accountId: DEMO_ACCOUNT, group: DEMO_GROUP, hash: hashApiKey(key), prefix: key.slice(0, 7) });
  if (fixedKey) {
    await ensureKey(stores, ctx, demoKey(fixedKey));
    return fixedKey;
  }
  if ((await stores.keys.listKeys(DEMO_ACCOUNT)).length > 0) return null;
  const key = generateApiKey();
  await ensureKey(stores, ctx, demoKey(key));
  return key;
}
