import { openDatabase } from '../db';
import { down, up } from './017-key-roles';

describe('migration 017: key roles', () => {
  it('makes every key that existed before an account admin, and keeps that the default for keys written without a role', async () => {
    const db = await openDatabase({});
    try {
      await down(db.knex); // back to before 017
      await db.knex('accounts').insert({ id: 'acme', name: 'Acme' });
      const row = (id: string) => ({ id, account_id: 'acme', group_name: 'default', key_hash: `h-${id}`, key_prefix: 'sk-abcd' });
      await db.knex('api_keys').insert(row('key_old'));

      await up(db.knex);

      expect((await db.knex('api_keys').where({ id: 'key_old' }).first()).role).toBe('admin');
      await db.knex('api_keys').insert(row('key_new'));
      expect((await db.knex('api_keys').where({ id: 'key_new' }).first()).role).toBe('admin');
      await expect(db.knex('api_keys').insert({ ...row('key_bad'), role: 'owner' })).rejects.toThrow(/api_keys_role_check/);
    } finally {
      await db.close();
    }
  }, 60_000);
});
