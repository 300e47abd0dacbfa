import type { TextStreamPart } from '@gateway/core';
import { MessagesEventEncoder, type MessageEvent } from './messages.stream.codec';

const finish: TextStreamPart = { type: 'finish', finishReason: 'stop', usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 } };

function run(parts: TextStreamPart[], thinking: 'off' | 'summarized' | 'omitted' = 'summarized'): MessageEvent[] {
  const enc = new MessagesEventEncoder('msg_1', 'sim-chat', thinking);
  return parts.flatMap((p) => enc.encode(p));
}

/** What the SDK's accumulator does with the events, enough to compare against the non-streamed message. */
function fold(events: MessageEvent[]) {
  const blocks: any[] = [];
  let final: any;
  for (const { event, data } of events) {
    const d = data as any;
    if (event === 'content_block_start') blocks[d.index] = { ...d.content_block, json: '' };
    if (event === 'content_block_delta') {
      const b = blocks[d.index];
      if (d.delta.type === 'text_delta') b.text += d.delta.text;
      if (d.delta.type === 'thinking_delta') b.thinking += d.delta.thinking;
      if (d.delta.type === 'signature_delta') b.signature = d.delta.signature;
      if (d.delta.type === 'input_json_delta') b.json += d.delta.partial_json;
    }
    if (event === 'message_delta') final = d;
  }
  return { blocks, final };
}

describe('MessagesEventEncoder', () => {
  it("message_start announces the upstream's input-usage part, in Anthropic's split, and sends nothing else for it", () => {
    const enc = new MessagesEventEncoder('msg_1', 'sim-chat', 'summarized', 9);
    const events = enc.encode({ type: 'input-usage', usage: { inputTokens: 1000, cachedInputTokens: 900, cacheCreationInputTokens: 60 } });
    expect(events).toHaveLength(1);
    expect((events[0]!.data.message as any).usage).toEqual({
      input_tokens: 40,
      output_tokens: 0,
      cache_creation_input_tokens: 60,
      cache_read_input_tokens: 900,
    });
  });

  it('message_start announces the estimate when the first part is content', () => {
    const enc = new MessagesEventEncoder('msg_1', 'sim-chat', 'summarized', 9);
    const [start] = enc.encode({ type: 'text-delta', delta: 'Hi' });
    expect(start!.event).toBe('message_start');
    expect((start!.data.message as any).usage).toMatchObject({ input_tokens: 9, cache_read_input_tokens: 0 });
  });

  it('emits the golden sequence for plain text', () => {
    const events = run([{ type: 'text-delta', delta: 'Hello ' }, { type: 'text-delta', delta: 'world' }, finish]);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of events) expect(e.data.type).toBe(e.event);
    expect(events[events.length - 2]!.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 7, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(fold(events).blocks[0].text).toBe('Hello world');
  });

  it('opens thinking, text and tool_use blocks in order with their own indexes', () => {
    const events = run([
      { type: 'reasoning-delta', delta: 'let me ' },
      { type: 'reasoning-delta', delta: 'see' },
      { type: 'reasoning-delta', delta: '', signature: 'sig' },
      { type: 'text-delta', delta: 'Calling.' },
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { ...finish, finishReason: 'tool-calls' },
    ]);
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => e.data);
    expect(starts).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'c1', name: 'f', input: {} } },
    ]);
    expect(events.filter((e) => e.event === 'content_block_stop').map((e) => (e.data as any).index)).toEqual([0, 1, 2]);
    expect(events.filter((e) => e.event === 'ping')).toHaveLength(1);
    const { blocks, final } = fold(events);
    expect(blocks.map((b) => [b.type, b.thinking ?? b.text ?? b.json, b.signature])).toEqual([
      ['thinking', 'let me see', 'sig'],
      ['text', 'Calling.', undefined],
      ['tool_use', '{"a":1}', undefined],
    ]);
    expect(final.delta.stop_reason).toBe('tool_use');
  });

  it('drops thinking when off and sends only the signature when omitted', () => {
    const parts: TextStreamPart[] = [
      { type: 'reasoning-delta', delta: 'secret' },
      { type: 'reasoning-delta', delta: '', signature: 'sig' },
      { type: 'text-delta', delta: 'hi' },
      finish,
    ];
    expect(run(parts, 'off').filter((e) => e.event === 'content_block_start')).toHaveLength(1);
    const omitted = run(parts, 'omitted');
    expect(omitted.some((e) => (e.data as any).delta?.type === 'thinking_delta')).toBe(false);
    expect(fold(omitted).blocks[0]).toMatchObject({ type: 'thinking', thinking: '', signature: 'sig' });
  });

  it('still pings once when the answer has no blocks, and reports the stop sequence', () => {
    const events = run([{ ...finish, stopSequence: 'END' }]);
    expect(events.map((e) => e.event)).toEqual(['message_start', 'ping', 'message_delta', 'message_stop']);
    expect((events[2]!.data as any).delta).toEqual({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
  });
});
