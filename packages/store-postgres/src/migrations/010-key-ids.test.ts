import { hashApiKey } from '@gateway/core';
import { openDatabase } from '../db';
import { up } from './010-key-ids';

describe('migration 010: key ids that reveal nothing', () => {
  it('gives hash-derived key ids a random one, and the rows that named the old id follow it', async () => {
    const db = await openDatabase({});
    try {
      const hash = hashApiKey('sk-an-old-bootstrapped-key-0001');
      const oldId = `key${hash.slice(0, 24)}`;
      await db.knex('accounts').insert({ id: 'acme', name: 'Acme' });
      await db.knex('api_keys').insert([
        { id: oldId, account_id: 'acme', group_name: 'default', key_hash: hash, key_prefix: 'sk-an-o' },
        {
          id: 'key_alreadyrandom000000000',
          account_id: 'acme',
          group_name: 'default',
          key_hash: hashApiKey('sk-other'),
          key_prefix: 'sk-othe',
        },
      ]);
      await db
        .knex('usage_log')
        .insert({ request_id: 'r1', account_id: 'acme', key_id: oldId, format: 'chat', status: 'ok', http_status: 200 });

      await up(db.knex);

      const ids = (await db.knex('api_keys').orderBy('key_prefix').select('id', 'key_hash')).map((r) => r.id);
      expect(ids[1]).toBe('key_alreadyrandom000000000');
      expect(ids[0]).toMatch(/^key_[a-z0-9]{24}$/);
      expect(hash).not.toContain(ids[0].slice(4, 12));
      expect(await db.knex('usage_log').pluck('key_id')).toEqual([ids[0]]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
