import { AnthropicStreamMapper } from './map-anthropic-stream';

const start = {
  type: 'message_start',
  message: { usage: { input_tokens: 40, cache_read_input_tokens: 900, cache_creation_input_tokens: 60, output_tokens: 1 } },
};

describe('AnthropicStreamMapper: the input usage of message_start', () => {
  it('comes as one input-usage part just before the first content, counting cache reads and writes', () => {
    const m = new AnthropicStreamMapper({ warnings: [] });
    expect(m.push(start)).toEqual([]);
    expect(m.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })).toEqual([]);
    expect(m.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } })).toEqual([
      { type: 'input-usage', usage: { inputTokens: 1000, cachedInputTokens: 900, cacheCreationInputTokens: 60 } },
      { type: 'text-delta', delta: 'Hi' },
    ]);
    expect(m.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '!' } })).toEqual([
      { type: 'text-delta', delta: '!' },
    ]);
  });

  it('yields nothing before an error that follows message_start, so the call can still fail over', () => {
    const m = new AnthropicStreamMapper({ warnings: [] });
    expect(m.push(start)).toEqual([]);
    expect(() => m.push({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toThrow(
      expect.objectContaining({ reason: 'upstream_unavailable' }),
    );
  });
});
