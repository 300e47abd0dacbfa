import type { TextStreamPart } from '@gateway/provider-kit';
import { AnthropicStreamForwarder } from './anthropic-stream-forwarder';
import { AnthropicStreamMapper } from './map-anthropic-stream';

const FIELDS = { id: 'msg_gw', model: 'client-model' };
const event = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
const message = (id: string, model: string) => ({
  id,
  type: 'message',
  role: 'assistant',
  model,
  content: [],
  stop_reason: null,
  stop_sequence: null,
  usage: { input_tokens: 7, output_tokens: 1, cache_read_input_tokens: 3, service_tier: 'standard' },
});
const START = event('message_start', { message: message('msg_up', 'up-model') });
const BLOCK = event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
const TEXT = (text: string) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
const STOP_BLOCK = event('content_block_stop', { index: 0 });
const DELTA = event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
const STOP = event('message_stop', {});
const ERROR = event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } });

const forwarder = () =>
  new AnthropicStreamForwarder({ dialect: 'anthropic-messages', fields: FIELDS }, new AnthropicStreamMapper({ warnings: [] }));

function run(f: AnthropicStreamForwarder, chunks: string[]): TextStreamPart[] {
  return [...chunks.flatMap((c) => f.push(c)), ...f.end()];
}

const textOf = (parts: TextStreamPart[]) => parts.map((p) => (p.type === 'forwarded-events' ? p.text : '')).join('');

describe('AnthropicStreamForwarder', () => {
  it("writes the client adapter's id and model into message_start and leaves every other event as it came", () => {
    const parts = run(forwarder(), [START + BLOCK + TEXT('Hel') + TEXT('lo') + STOP_BLOCK + DELTA + STOP]);
    expect(textOf(parts)).toBe(
      event('message_start', { message: message('msg_gw', 'client-model') }) + BLOCK + TEXT('Hel') + TEXT('lo') + STOP_BLOCK + DELTA + STOP,
    );
    // input usage, stop reason and usage read on the side, as the full path reads them
    expect(parts.filter((p) => p.type !== 'forwarded-events')).toEqual([
      { type: 'input-usage', usage: { inputTokens: 10, cachedInputTokens: 3 } },
      expect.objectContaining({
        type: 'finish',
        finishReason: 'stop',
        usage: expect.objectContaining({ inputTokens: 10, outputTokens: 5 }),
      }),
    ]);
    expect(parts.find((p) => p.type === 'forwarded-events')).toMatchObject({ generated: 'Hello' });
  });

  it('reads the usual text event by its one string, escapes and all, as the full path would read it', () => {
    const tricky = 'quote " brace }} slash \\ line\n é 😀';
    const parts = run(forwarder(), [START + BLOCK + TEXT(tricky) + TEXT('"}}') + STOP_BLOCK + DELTA + STOP]);
    expect(textOf(parts)).toContain(TEXT(tricky) + TEXT('"}}'));
    expect(parts.find((p) => p.type === 'forwarded-events')).toMatchObject({ generated: `${tricky}"}}` });
  });

  it('one forwarded part per upstream read, held until the stream has content to show', () => {
    const f = forwarder();
    expect(f.push(START + BLOCK)).toEqual([]);
    const parts = f.push(TEXT('Hi'));
    expect(parts.map((p) => p.type)).toEqual(['forwarded-events', 'input-usage']);
    expect(parts[0]).toMatchObject({ text: expect.stringContaining('"msg_gw"'), generated: 'Hi' });
    expect(f.push(TEXT('!') + STOP_BLOCK).map((p) => p.type)).toEqual(['forwarded-events']);
  });

  it('hands an event with upstream strings beside generated content over as a native event, in its place', () => {
    const search = event('content_block_start', {
      index: 1,
      content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
    });
    const parts = run(forwarder(), [START + BLOCK + TEXT('a') + search + DELTA + STOP]);
    expect(parts.map((p) => p.type)).toEqual(['forwarded-events', 'native-event', 'forwarded-events', 'input-usage', 'finish']);
    expect(parts[1]).toEqual({
      type: 'native-event',
      dialect: 'anthropic-messages',
      event: 'content_block_start',
      data: JSON.parse(search.split('data: ')[1]!),
    });
  });

  it('an unknown stop reason goes as a native event too', () => {
    const odd = event('message_delta', { delta: { stop_reason: 'a_new_reason', stop_sequence: null }, usage: { output_tokens: 5 } });
    const parts = run(forwarder(), [START + BLOCK + TEXT('a') + odd + STOP]);
    expect(parts.filter((p) => p.type === 'native-event')).toEqual([expect.objectContaining({ event: 'message_delta' })]);
  });

  it('an error before any content is thrown at once, so the call can still fail over', () => {
    const f = forwarder();
    expect(() => f.push(START + BLOCK + ERROR)).toThrow(expect.objectContaining({ reason: 'upstream_unavailable' }));
  });

  it('an error after content: the events before it go first, then the stream ends with the full path error', () => {
    const f = forwarder();
    const parts = f.push(START + BLOCK + TEXT('partial') + ERROR + TEXT('never'));
    expect(textOf(parts)).toContain('partial');
    expect(textOf(parts)).not.toContain('never');
    expect(f.failed).toBe(true);
    expect(() => f.end()).toThrow(expect.objectContaining({ reason: 'upstream_unavailable' }));
  });

  it('a stream cut short before message_stop is a truncation, as on the full path', () => {
    const f = forwarder();
    f.push(START + BLOCK + TEXT('partial'));
    expect(() => f.end()).toThrow(/message_stop/);
  });

  it('an event split across reads is forwarded once whole', () => {
    const whole = START + BLOCK + TEXT('split') + STOP_BLOCK + DELTA + STOP;
    const cut = whole.indexOf('split') + 2;
    const parts = run(forwarder(), [whole.slice(0, cut), whole.slice(cut)]);
    expect(textOf(parts)).toBe(event('message_start', { message: message('msg_gw', 'client-model') }) + whole.slice(START.length));
  });
});
