import { openDatabase } from '../db';
import { up } from './029-narrowed-keys-members';

describe('migration 029: narrowed keys that an earlier 017 made admins', () => {
  it('demotes a narrowed admin key that nobody created or changed since roles came, with an audit record; leaves the rest', async () => {
    const db = await openDatabase({});
    try {
      const k = db.knex;
      await k('accounts').insert({ id: 'acme', name: 'Acme' });
      const row = (id: string, role: string, narrowed: Record<string, unknown> = {}) => ({
        id,
        account_id: 'acme',
        group_name: 'default',
        key_hash: `h-${id}`,
        key_prefix: 'sk-abcd',
        role,
        ...narrowed,
      });
      // as the earlier 017 left them: every key from before roles an admin, narrowed or not
      await k('api_keys').insert([
        row('key_legacy_models', 'admin', { models: JSON.stringify(['sim-chat']) }),
        row('key_legacy_budget', 'admin'),
        row('key_legacy_wide', 'admin'),
        row('key_legacy_rotated', 'admin', { expires_at: new Date('2031-01-01T00:00:00Z') }),
        // since the upgrade: an operator made this narrowed key an admin, or changed this one and left it admin
        row('key_made_admin', 'admin', { requests_per_minute: 5 }),
        row('key_changed', 'admin', { tokens_per_minute: 100 }),
        row('key_member', 'member', { concurrent_streams: 1 }),
      ]);
      await k('key_quotas').insert({ key_id: 'key_legacy_budget', credit_limit: 5 });
      const record = (target: string, action: string) => ({
        id: `aud_${target}_${action}`,
        at: new Date(),
        actor_type: 'admin_key',
        actor_id: 'admin',
        action,
        target_type: 'key',
        target_id: target,
        account_id: 'acme',
      });
      await k('audit_log').insert([
        record('key_made_admin', 'key.create'),
        record('key_changed', 'key.update'),
        record('key_legacy_rotated', 'key.rotate'),
      ]);

      await up(k);

      const roles = Object.fromEntries((await k('api_keys').select('id', 'role')).map((r) => [r.id, r.role]));
      expect(roles).toEqual({
        key_legacy_models: 'member',
        key_legacy_budget: 'member',
        key_legacy_rotated: 'member',
        key_legacy_wide: 'admin',
        key_made_admin: 'admin',
        key_changed: 'admin',
        key_member: 'member',
      });
      const written = await k('audit_log').where({ actor_type: 'migration' }).orderBy('target_id');
      expect(written.map((r) => [r.actor_id, r.action, r.target_id, r.account_id, r.before, r.after])).toEqual(
        ['key_legacy_budget', 'key_legacy_models', 'key_legacy_rotated'].map((id) => [
          '029-narrowed-keys-members',
          'key.update',
          id,
          'acme',
          { role: 'admin' },
          { role: 'member' },
        ]),
      );

      await up(k); // again: nothing left to do, nothing written
      expect(await k('audit_log').where({ actor_type: 'migration' })).toHaveLength(3);
    } finally {
      await db.close();
    }
  }, 60_000);
});
