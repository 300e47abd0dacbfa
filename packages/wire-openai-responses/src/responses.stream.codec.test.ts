import { GatewayError, type TextStreamPart } from '@gateway/core';
import { ResponseEventEncoder, type ResponseEvent } from './responses.stream.codec';

const header = { id: 'resp_1', createdAt: 1, model: 'm', body: {} };
const usage = { inputTokens: 3, outputTokens: 4, totalTokens: 7 };

function run(parts: TextStreamPart[], summary = false): { events: ResponseEvent[]; document: any } {
  const enc = new ResponseEventEncoder(header, summary);
  const events = [...enc.start(), ...parts.flatMap((p) => enc.encode(p))];
  const document = enc.document;
  if (document) events.push(...enc.complete(document));
  return { events, document };
}

describe('ResponseEventEncoder', () => {
  it('reasoning (with summary), then text: every item opens, streams and closes in order', () => {
    const { events, document } = run(
      [
        { type: 'reasoning-delta', delta: 'think ' },
        { type: 'reasoning-delta', delta: 'hard' },
        { type: 'reasoning-delta', delta: '', signature: 'sig' },
        { type: 'text-delta', delta: 'Hello ' },
        { type: 'text-delta', delta: 'world' },
        { type: 'finish', finishReason: 'stop', usage },
      ],
      true,
    );
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.reasoning_text.delta',
      'response.reasoning_text.delta',
      'response.reasoning_text.done',
      'response.content_part.done',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(document.output).toMatchObject([
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'think hard' }],
        content: [{ type: 'reasoning_text', text: 'think hard' }],
        encrypted_content: 'sig',
      },
      { type: 'message', status: 'completed', content: [{ type: 'output_text', text: 'Hello world' }] },
    ]);
    expect(document.usage).toMatchObject({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
  });

  it('interleaved tool-call deltas reach their own items; calls close at the end', () => {
    const { events, document } = run([
      { type: 'tool-call-start', index: 0, id: 'c0', name: 'a' },
      { type: 'tool-call-start', index: 1, id: 'c1', name: 'b' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'finish', finishReason: 'tool-calls', usage },
    ]);
    const deltas = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    expect(deltas.map((e) => [e.output_index, e.delta])).toEqual([
      [0, '{"x":'],
      [1, '{}'],
      [0, '1}'],
    ]);
    expect(events.filter((e) => e.type === 'response.function_call_arguments.done').map((e) => [e.name, e.arguments])).toEqual([
      ['a', '{"x":1}'],
      ['b', '{}'],
    ]);
    expect(document.output).toMatchObject([
      { type: 'function_call', call_id: 'c0', name: 'a', arguments: '{"x":1}', status: 'completed' },
      { type: 'function_call', call_id: 'c1', name: 'b', arguments: '{}', status: 'completed' },
    ]);
  });

  it('a length stop ends with response.incomplete', () => {
    const { events, document } = run([
      { type: 'text-delta', delta: 'cut' },
      { type: 'finish', finishReason: 'length', usage },
    ]);
    expect(events[events.length - 1]!.type).toBe('response.incomplete');
    expect(document).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ status: 'incomplete' }],
    });
  });

  it('fail() gives an error event and then response.failed', () => {
    const enc = new ResponseEventEncoder(header, false);
    const events = [
      ...enc.start(),
      ...enc.encode({ type: 'text-delta', delta: 'part' }),
      ...enc.fail(new GatewayError('upstream_error', 'boom', { code: 'x' })),
    ];
    expect(events.slice(-2)).toEqual([
      { type: 'error', code: 'x', message: 'boom', param: null, sequence_number: 5 },
      expect.objectContaining({
        type: 'response.failed',
        sequence_number: 6,
        response: expect.objectContaining({ status: 'failed', error: { code: 'x', message: 'boom' } }),
      }),
    ]);
    expect(enc.document).toBeUndefined();
  });
});
