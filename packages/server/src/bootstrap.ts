import { generateApiKey, hashApiKey, type KeyRepository } from '@gateway/core';
import type { GatewayConfig } from './config';
import { DEMO_ACCOUNT, DEMO_GROUP } from './default-config';

/** Makes the config file's keys exist (by hash; idempotent). */
export async function bootstrapConfigKeys(keys: KeyRepository, config: GatewayConfig): Promise<void> {
  for (const k of config.file.keys ?? []) {
    await keys.createAccount(k.account);
    // The id is random (it must reveal nothing about the key); createKey is idempotent on the hash, so every instance
    // bootstrapping the same file finds the first one's row and names the key alike.
    await keys.createKey({
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
export async function bootstrapDemoKey(keys: KeyRepository, fixedKey?: string): Promise<string | null> {
  await keys.createAccount(DEMO_ACCOUNT, 'Demo account');
  if (fixedKey) {
    await keys.createKey({ accountId: DEMO_ACCOUNT, group: DEMO_GROUP, hash: hashApiKey(fixedKey), prefix: fixedKey.slice(0, 7) });
    return fixedKey;
  }
  if ((await keys.listKeys(DEMO_ACCOUNT)).length > 0) return null;
  const key = generateApiKey();
  await keys.createKey({ accountId: DEMO_ACCOUNT, group: DEMO_GROUP, hash: hashApiKey(key), prefix: key.slice(0, 7) });
  return key;
}
