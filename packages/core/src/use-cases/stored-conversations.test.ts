import { InMemoryConversationStore } from '@gateway/testkit';
import type { Principal } from '../auth';
import type { TextResult } from '../text';
import { StoredConversations, type KeptTurn } from './stored-conversations';

const alpha: Principal = { accountId: 'alpha', keyId: 'k1', group: 'all' };
const beta: Principal = { accountId: 'beta', keyId: 'k2', group: 'all' };
const answer = (text: string): TextResult => ({
  model: 'm',
  content: text ? [{ type: 'text', text }] : [],
  finishReason: 'stop',
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  warnings: [],
});
const turn = (over: Partial<KeptTurn> = {}): KeptTurn => ({
  kind: 'response',
  id: 'resp_1',
  model: 'm',
  previousId: null,
  sent: { system: 'Be brief.', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
  result: answer('hello'),
  document: { id: 'resp_1' },
  ...over,
});

describe('StoredConversations', () => {
  const setup = (now = new Date('2026-03-01T00:00:00Z')) => {
    const store = new InMemoryConversationStore();
    return { store, conversations: new StoredConversations(store, () => now) };
  };

  it('keeps a turn with the history a follow-up sends: what it sent, then its answer; chained to the one it continues', async () => {
    const { conversations } = setup();
    await conversations.keep(alpha, turn({ previousId: 'resp_0' }));
    expect(await conversations.find(alpha, 'response', 'resp_1')).toEqual({
      id: 'resp_1',
      kind: 'response',
      accountId: 'alpha',
      model: 'm',
      previousId: 'resp_0',
      createdAt: new Date('2026-03-01T00:00:00Z'),
      document: { id: 'resp_1' },
      conversation: {
        system: 'Be brief.',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
        ],
      },
    });
  });

  it('an answer without content adds no assistant message', async () => {
    const { conversations } = setup();
    await conversations.keep(alpha, turn({ result: answer('') }));
    expect((await conversations.find(alpha, 'response', 'resp_1'))?.conversation.messages).toHaveLength(1);
  });

  it("another account's turn and another kind's turn behave as unknown ones, for reads and deletes", async () => {
    const { conversations } = setup();
    await conversations.keep(alpha, turn({ kind: 'thread', id: 'msg_1' }));
    expect(await conversations.find(beta, 'thread', 'msg_1')).toBeNull();
    expect(await conversations.find(alpha, 'response', 'msg_1')).toBeNull();
    expect(await conversations.delete(beta, 'thread', 'msg_1')).toBe(false);
    expect(await conversations.delete(alpha, 'response', 'msg_1')).toBe(false);
    expect(await conversations.delete(alpha, 'thread', 'msg_1')).toBe(true);
    expect(await conversations.find(alpha, 'thread', 'msg_1')).toBeNull();
  });

  it('expires the turns older than the retention, of every account and kind', async () => {
    const { store, conversations } = setup(new Date('2026-03-31T00:00:00Z'));
    await conversations.keep(alpha, turn({ id: 'resp_old', createdAt: new Date('2026-02-28T00:00:00Z') }));
    await conversations.keep(beta, turn({ kind: 'thread', id: 'msg_old', createdAt: new Date('2026-02-01T00:00:00Z') }));
    await conversations.keep(alpha, turn({ id: 'resp_new', createdAt: new Date('2026-03-02T00:00:00Z') }));
    expect(await conversations.expire(30)).toBe(2);
    expect(store.turns.map((t) => t.id)).toEqual(['resp_new']);
  });
});
