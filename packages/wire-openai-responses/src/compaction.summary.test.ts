import type { Message } from '@gateway/core';
import { COMPACTION_RULES, compactConversation, expandCompaction, SUMMARY_HEADER } from './compaction.summary';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const long = (n: number, w = 'word') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

describe('compactConversation', () => {
  const messages: Message[] = [
    user(`first question ${long(50)}`),
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'hidden thoughts' },
        { type: 'tool-call', id: 'c1', name: 'lookup', arguments: JSON.stringify({ q: long(100) }) },
      ],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', name: 'lookup', content: [{ type: 'text', text: long(40, 'r') }] }],
    },
    assistant(`first answer ${long(50)}`),
    user('second question'),
    assistant('second answer'),
    user('third question'),
    assistant('third answer'),
  ];

  it('keeps the system text and the last turns verbatim, and digests the older ones', () => {
    const c = compactConversation({ system: 'Be terse.', messages });
    expect(c.system).toBe('Be terse.');
    expect(c.kept).toEqual(messages.slice(4));
    expect(c.digest).toHaveLength(4);
    expect(c.digest[0]).toBe(`- user: first question ${long(28)} …`);
    expect(c.digest[1]).toMatch(/^- assistant called lookup\(\{"q":".{180,}…\)$/);
    expect(c.digest[1]!.length).toBeLessThan(COMPACTION_RULES.argumentChars + 40);
    expect(c.digest[2]).toMatch(/^- tool lookup returned: r0 r1 .* r29 …$/);
    expect(c.digest[3]).toMatch(/^- assistant: first answer /);
    expect(c.digest.join('\n')).not.toContain('hidden thoughts');
  });

  it('is deterministic', () => {
    expect(compactConversation({ messages })).toEqual(compactConversation({ messages }));
  });

  it('a short conversation keeps everything and has no digest', () => {
    const c = compactConversation({ messages: messages.slice(4) });
    expect(c.digest).toEqual([]);
    expect(expandCompaction(c).messages).toEqual(messages.slice(4));
  });

  it('expands to one summary message followed by the kept turns', () => {
    const e = expandCompaction(compactConversation({ system: 'S', messages }));
    expect(e.system).toBe('S');
    expect(e.messages).toHaveLength(5);
    const first = e.messages[0];
    expect(first!.role).toBe('user');
    expect(first!.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(new RegExp(`^${SUMMARY_HEADER.replace(/[()]/g, '\\$&')}\n- user: first question`)),
    });
    expect(e.messages.slice(1)).toEqual(messages.slice(4));
  });

  it('re-compacting keeps the earlier digest lines unchanged', () => {
    const once = expandCompaction(compactConversation({ messages }));
    const again = compactConversation({ messages: [...once.messages, user('fourth question'), assistant('fourth answer')] });
    const earlier = compactConversation({ messages }).digest;
    expect(again.digest.slice(0, earlier.length)).toEqual(earlier);
    expect(again.digest.slice(earlier.length)).toEqual(['- user: second question', '- assistant: second answer']);
  });

  it('caps the digest at its most recent lines', () => {
    const many: Message[] = [];
    for (let i = 0; i < 60; i++) many.push(user(`q${i}`), assistant(`a${i}`));
    const c = compactConversation({ messages: many });
    expect(c.digest).toHaveLength(COMPACTION_RULES.maxLines);
    expect(c.digest[0]).toBe(`- (${116 - COMPACTION_RULES.maxLines + 1} earlier lines omitted)`);
    expect(c.digest[c.digest.length - 1]).toBe('- assistant: a57');
    expect(c.kept).toEqual(many.slice(-4));
  });
});
