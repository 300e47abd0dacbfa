import { estimateInputTokens } from './token-estimate';
import type { Message } from './text';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

describe('estimateInputTokens', () => {
  it('is about four characters a token, plus framing per message and request', () => {
    // 3 per request + (3 + 40 / 4) for the message
    expect(estimateInputTokens({ messages: [user('x'.repeat(40))] })).toBe(16);
    // a system prompt is framed like a message
    expect(estimateInputTokens({ system: 'abcd', messages: [user('x'.repeat(40))] })).toBe(20);
  });

  it('counts images at a fixed cost, tool calls, tool results and tool definitions', () => {
    const base = estimateInputTokens({ messages: [user('hi')] });
    const image: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', url: 'https://x/y.png' },
      ],
    };
    expect(estimateInputTokens({ messages: [image] }) - base).toBe(1600);

    const call: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', id: 'c1', name: 'get_weather', arguments: '{"city":"Lisbon"}' }],
    };
    const result: Message = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'sunny, 24 C' }] }],
    };
    expect(estimateInputTokens({ messages: [user('hi'), call, result] })).toBe(base + (3 + 3 + 5) + (3 + 3));

    const tools = [{ name: 'get_weather', description: 'Current weather', parameters: { type: 'object' } }];
    expect(estimateInputTokens({ messages: [user('hi')], tools })).toBe(base + 3 + 4 + 5);
  });
});
