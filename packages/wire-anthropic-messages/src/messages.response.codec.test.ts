import type { TextResult } from '@gateway/core';
import { encodeMessage, encodeUsage, stopReasonOf, toolInput } from './messages.response.codec';

const usage = { inputTokens: 10, outputTokens: 6, totalTokens: 16, cachedInputTokens: 0, reasoningTokens: 2 };
const result: TextResult = {
  model: 'm',
  content: [
    { type: 'reasoning', text: 'think', signature: 'sig' },
    { type: 'text', text: 'hello' },
    { type: 'tool-call', id: 'c1', name: 'f', arguments: '{"a":1}' },
  ],
  finishReason: 'tool-calls',
  usage,
  warnings: [],
};

describe('messages response codec', () => {
  it.each([
    ['stop', undefined, 'end_turn'],
    ['stop', 'END', 'stop_sequence'],
    ['length', undefined, 'max_tokens'],
    ['tool-calls', undefined, 'tool_use'],
    ['content-filter', undefined, 'refusal'],
    ['other', undefined, 'end_turn'],
  ] as const)('finish %s (stop sequence %s) → %s', (finish, seq, expected) => {
    expect(stopReasonOf(finish, seq)).toBe(expected);
  });

  it('counts input tokens without the cached parts', () => {
    expect(
      encodeUsage({ inputTokens: 100, outputTokens: 5, totalTokens: 105, cachedInputTokens: 60, cacheCreationInputTokens: 10 }),
    ).toEqual({
      input_tokens: 30,
      output_tokens: 5,
      cache_creation_input_tokens: 10,
      cache_read_input_tokens: 60,
    });
  });

  it('encodes the message object with thinking, text and tool_use blocks', () => {
    expect(encodeMessage('msg_1', 'sim-chat', result, 'summarized')).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'sim-chat',
      content: [
        { type: 'thinking', thinking: 'think', signature: 'sig' },
        { type: 'text', text: 'hello' },
        { type: 'tool_use', id: 'c1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      stop_details: null,
      container: null,
      usage: {
        input_tokens: 10,
        output_tokens: 6,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens_details: { thinking_tokens: 2 },
      },
    });
  });

  it('hides thinking when off and empties it when omitted', () => {
    expect(encodeMessage('m', 'x', result, 'off').content.map((b: any) => b.type)).toEqual(['text', 'tool_use']);
    expect(encodeMessage('m', 'x', result, 'omitted').content[0]).toEqual({ type: 'thinking', thinking: '', signature: 'sig' });
  });

  it('turns unparseable tool arguments into an empty object', () => {
    expect(toolInput('not json')).toEqual({});
    expect(toolInput('[1]')).toEqual({});
    expect(toolInput('')).toEqual({});
  });
});
