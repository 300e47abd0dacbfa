import { sealedInventory, type Database } from '@gateway/store-postgres';
import type { Logger } from '@gateway/observability';

/**
 * At start-up: a sealed value that neither GATEWAY_SECRET nor GATEWAY_SECRET_PREVIOUS opens is named in a warning
 * (the gateway still starts: a provider without its key, a webhook secret to re-issue), and values still sealed under
 * the previous secret are counted, with the command that re-seals them. Names only, never a value.
 */
export async function warnOfSealedSecrets(
  db: Database['knex'],
  secrets: { current?: string; previous?: string },
  logger: Logger,
): Promise<void> {
  const found = await sealedInventory(db, secrets);
  if (found.unreadable.length)
    logger.warn('sealed secrets cannot be opened with GATEWAY_SECRET or GATEWAY_SECRET_PREVIOUS', {
      affected: found.unreadable,
      fix: 'set GATEWAY_SECRET_PREVIOUS to the secret they were sealed with; or set the provider keys again and re-issue the webhook secrets (docs/security.md)',
    });
  if (found.previous.length)
    logger.warn('sealed secrets are still under GATEWAY_SECRET_PREVIOUS', {
      count: found.previous.length,
      fix: 'run `npx gateway secrets:reseal`, then remove GATEWAY_SECRET_PREVIOUS',
    });
}
