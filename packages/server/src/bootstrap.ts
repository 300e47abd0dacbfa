import { bootstrapDemoKey as demoKey, bootstrapFileKeys } from '@gateway/core';
import type { GatewayConfig } from './config';
import { DEMO_ACCOUNT, DEMO_GROUP } from './default-config';
import type { Repositories } from './repositories';

/** Makes the config file's keys exist (by hash; idempotent), each an audited change (docs/admin.md, "Audit"). */
export async function bootstrapConfigKeys(stores: Pick<Repositories, 'audit'>, config: GatewayConfig): Promise<void> {
  await bootstrapFileKeys(stores.audit, config.source, config.file.keys ?? []);
}

/** With the built-in config: the demo account's key, returned when first made or fixed by GATEWAY_DEMO_KEY. */
export function bootstrapDemoKey(stores: Pick<Repositories, 'audit' | 'keys'>, config: GatewayConfig, fixedKey?: string) {
  return demoKey(stores, config.source, { account: DEMO_ACCOUNT, group: DEMO_GROUP }, fixedKey);
}
