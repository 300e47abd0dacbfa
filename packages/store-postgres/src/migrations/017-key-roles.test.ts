import { openDatabase } from '../db';
import { down, up } from './017-key-roles';

describe('migration 017: key roles', () => {
  it('makes a key from before roles an account admin only if it was account-wide; narrowed ones become members; keys written without a role are admins', async () => {
    const db = await openDatabase({});
    try {
      await down(db.knex); // back to before 017
      await db.knex('accounts').insert({ id: 'acme', name: 'Acme' });
      const row = (id: string, narrowed: Record<string, unknown> = {}) => ({
        id,
        account_id: 'acme',
        group_name: 'default',
        key_hash: `h-${id}`,
        key_prefix: 'sk-abcd',
        ...narrowed,
      });
      await db
        .knex('api_keys')
        .insert([
          row('key_wide', { name: 'a name narrows nothing' }),
          row('key_models', { models: JSON.stringify(['sim-chat']) }),
          row('key_expiry', { expires_at: new Date('2031-01-01T00:00:00Z') }),
          row('key_rpm', { requests_per_minute: 10 }),
          row('key_tpm', { tokens_per_minute: 1000 }),
          row('key_streams', { concurrent_streams: 1 }),
          row('key_budget'),
          row('key_period_only'),
        ]);
      await db.knex('key_quotas').insert([
        { key_id: 'key_budget', credit_limit: 5 },
        { key_id: 'key_period_only', credit_limit: null, period: 'daily' }, // no limit: unbounded, as before
      ]);

      await up(db.knex);

      const roles = Object.fromEntries((await db.knex('api_keys').select('id', 'role')).map((r) => [r.id, r.role]));
      expect(roles).toEqual({
        key_wide: 'admin',
        key_period_only: 'admin',
        key_models: 'member',
        key_expiry: 'member',
        key_rpm: 'member',
        key_tpm: 'member',
        key_streams: 'member',
        key_budget: 'member',
      });
      await db.knex('api_keys').insert(row('key_new'));
      expect((await db.knex('api_keys').where({ id: 'key_new' }).first()).role).toBe('admin');
      await expect(db.knex('api_keys').insert({ ...row('key_bad'), role: 'owner' })).rejects.toThrow(/api_keys_role_check/);
    } finally {
      await db.close();
    }
  }, 60_000);
});
