import type { StoredTurn } from '@gateway/core';
import { KnexResponseStore } from './knex-response-store';
import { describeOnTestDatabases, type TestDatabaseTarget } from '../test/test-databases';

const sample = (id: string, accountId = 'alpha'): StoredTurn => ({
  id,
  kind: 'response',
  accountId,
  model: 'sim-chat',
  previousId: null,
  createdAt: new Date('2026-01-02T03:04:05Z'),
  document: { id, object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text: 'hi' }] }] },
  conversation: {
    system: 'Be brief.',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', mediaType: 'image/png', data: 'AAAA' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"a":1}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', name: 'f', content: [{ type: 'text', text: 'ok' }] }] },
    ],
  },
});

describeOnTestDatabases((target) =>
  describe(`KnexResponseStore on ${target.name}`, () => {
    let db: Awaited<ReturnType<TestDatabaseTarget['open']>>;
    let store: KnexResponseStore;
    beforeAll(async () => {
      db = await target.open();
      store = new KnexResponseStore(db.knex);
    });
    afterAll(async () => db.drop());

    it('round-trips the document and the canonical conversation', async () => {
      const r = { ...sample('resp_a1'), previousId: 'resp_a0' };
      await store.save(r);
      expect(await store.find('alpha', 'response', 'resp_a1')).toEqual(r);
    });

    it('another account sees nothing and cannot delete', async () => {
      await store.save(sample('resp_a2'));
      expect(await store.find('beta', 'response', 'resp_a2')).toBeNull();
      expect(await store.delete('beta', 'response', 'resp_a2')).toBe(false);
      expect(await store.find('alpha', 'response', 'resp_a2')).not.toBeNull();
    });

    it('deletes once', async () => {
      await store.save(sample('resp_a3'));
      expect(await store.delete('alpha', 'response', 'resp_a3')).toBe(true);
      expect(await store.delete('alpha', 'response', 'resp_a3')).toBe(false);
      expect(await store.find('alpha', 'response', 'resp_a3')).toBeNull();
    });

    it('reads and deletes a turn only as its own kind', async () => {
      const thread = { ...sample('msg_t1'), kind: 'thread' as const, previousId: 'msg_t0' };
      await store.save(thread);
      expect(await store.find('alpha', 'response', 'msg_t1')).toBeNull();
      expect(await store.delete('alpha', 'response', 'msg_t1')).toBe(false);
      expect(await store.find('alpha', 'thread', 'msg_t1')).toEqual(thread);
      expect(await store.delete('alpha', 'thread', 'msg_t1')).toBe(true);
    });

    it('refuses a duplicate id', async () => {
      await store.save(sample('resp_a4'));
      await expect(store.save(sample('resp_a4', 'beta'))).rejects.toThrow();
    });

    it('purges responses created before the cutoff, of every account, in batches, and nothing newer', async () => {
      const at = (id: string, iso: string, account = 'alpha') => store.save({ ...sample(id, account), createdAt: new Date(iso) });
      for (let i = 0; i < 5; i++) await at(`resp_old${i}`, `2025-01-0${i + 1}T00:00:00Z`, i % 2 ? 'beta' : 'alpha');
      await at('resp_new0', '2025-02-01T00:00:00Z');
      expect(await store.purgeCreatedBefore(new Date('2025-01-15T00:00:00Z'), 2)).toBe(5);
      expect(await store.find('alpha', 'response', 'resp_old0')).toBeNull();
      expect(await store.find('beta', 'response', 'resp_old1')).toBeNull();
      expect((await store.find('alpha', 'response', 'resp_new0'))?.id).toBe('resp_new0');
      expect(await store.purgeCreatedBefore(new Date('2025-01-15T00:00:00Z'))).toBe(0);
    });
  }),
);
