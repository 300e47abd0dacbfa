import type { Knex } from 'knex';
import { newId } from '@gateway/core';
import { NARROWED_KEY_SQL } from './017-key-roles';

const ACTOR = '029-narrowed-keys-members';

/**
 * Databases that ran migration 017 before it spared narrowed keys made every key from before roles an account admin.
 * Since 017 (its release brought the audit log, 018) every key created or changed through the admin API, the CLI or
 * self-service has a `key.create` or `key.update` record; config-file and demo keys are never narrowed. So a narrowed
 * admin key without such a record got its role from that 017 alone: it becomes a member, as 017 now decides, with a
 * `key.update` record by actor `migration:029-narrowed-keys-members`. A key changed since keeps its role: someone set
 * it, or saw it and left it (docs/upgrading.md says how to find those).
 */
export async function up(knex: Knex): Promise<void> {
  const keys: Array<{ id: string; account_id: string }> = await knex('api_keys')
    .where({ role: 'admin' })
    .whereRaw(NARROWED_KEY_SQL)
    .whereNotExists(
      knex('audit_log')
        .where({ target_type: 'key' })
        .whereRaw('audit_log.target_id = api_keys.id')
        .whereIn('action', ['key.create', 'key.update']),
    )
    .select('id', 'account_id');
  if (keys.length === 0) return;
  await knex('api_keys')
    .whereIn(
      'id',
      keys.map((k) => k.id),
    )
    .update({ role: 'member' });
  const at = new Date();
  await knex('audit_log').insert(
    keys.map((k) => ({
      id: newId('aud_'),
      at,
      actor_type: 'migration',
      actor_id: ACTOR,
      action: 'key.update',
      target_type: 'key',
      target_id: k.id,
      account_id: k.account_id,
      before: JSON.stringify({ role: 'admin' }),
      after: JSON.stringify({ role: 'member' }),
    })),
  );
}

/** Nothing: making those keys admins again would widen them again (a platform admin promotes a key by hand). */
export async function down(): Promise<void> {}
