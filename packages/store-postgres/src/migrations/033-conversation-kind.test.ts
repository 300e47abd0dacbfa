import { openDatabase } from '../db';
import { down, up } from './033-conversation-kind';

describe('migration 033: the kind of a stored turn', () => {
  it('marks the thread turns stored before it as threads, and every other row as a response', async () => {
    const db = await openDatabase({});
    try {
      const k = db.knex;
      await down(k);
      const row = (id: string, document: Record<string, unknown>) => ({
        id,
        account_id: 'acme',
        model: 'sim-chat',
        document: JSON.stringify(document),
        conversation: JSON.stringify({ messages: [] }),
      });
      // as rows were before the column: a thread turn known only by its document's object
      await k('responses').insert([
        row('resp_a', { id: 'resp_a', object: 'response', output: [] }),
        row('msg_b', { object: 'message_thread_turn', messages: [], message: { id: 'msg_b' } }),
      ]);

      await up(k);

      const kinds = Object.fromEntries((await k('responses').select('id', 'kind')).map((r) => [r.id, r.kind]));
      expect(kinds).toEqual({ resp_a: 'response', msg_b: 'thread' });
    } finally {
      await db.close();
    }
  }, 60_000);
});
