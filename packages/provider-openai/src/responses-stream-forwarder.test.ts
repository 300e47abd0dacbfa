import { collectStream } from '@gateway/core';
import { parseSse, type TextStreamPart } from '@gateway/provider-kit';
import { readResponsesStream, ResponsesStreamMapper } from './map-responses-stream';
import { ResponsesStreamForwarder } from './responses-stream-forwarder';
import { messageItem, outputText, responsesEvent, upstreamResponse } from './testing/responses-events';

const event = responsesEvent;
const response = (status: string, extra: object = {}) =>
  upstreamResponse(status, { previous_response_id: null, service_tier: 'auto', ...extra });
const USAGE = {
  input_tokens: 12,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 30,
  output_tokens_details: { reasoning_tokens: 20 },
  total_tokens: 42,
};
const MSG = { item_id: 'msg_68b1c2d3', output_index: 1, content_index: 0 };
const RS = { item_id: 'rs_68b1c2d3', output_index: 0, summary_index: 0 };
const PART = outputText;
const SUMMARY = (text: string) => ({ type: 'summary_text', text });
const MESSAGE_ITEM = (status: string, text?: string) => messageItem('msg_68b1c2d3', status, text);
const REASONING_ITEM = (summary: string[]) => ({
  id: 'rs_68b1c2d3',
  type: 'reasoning',
  ...(summary.length ? { encrypted_content: 'gAAAAB-sealed' } : {}),
  summary: summary.map(SUMMARY),
});

const CREATED = event('response.created', 0, { response: response('in_progress') });
const IN_PROGRESS = event('response.in_progress', 1, { response: response('in_progress') });
/** the item events of a reasoning summary, then a message, numbered from 2 */
const ITEMS = [
  event('response.output_item.added', 2, { output_index: 0, item: REASONING_ITEM([]) }),
  event('response.reasoning_summary_part.added', 3, { ...RS, part: SUMMARY('') }),
  event('response.reasoning_summary_text.delta', 4, { ...RS, delta: 'Thinking', obfuscation: 'aB3dE' }),
  event('response.reasoning_summary_text.done', 5, { ...RS, text: 'Thinking' }),
  event('response.reasoning_summary_part.done', 6, { ...RS, part: SUMMARY('Thinking') }),
  event('response.output_item.done', 7, { output_index: 0, item: REASONING_ITEM(['Thinking']) }),
  event('response.output_item.added', 8, { output_index: 1, item: MESSAGE_ITEM('in_progress') }),
  event('response.content_part.added', 9, { ...MSG, part: PART('') }),
  event('response.output_text.delta', 10, { ...MSG, delta: 'Hel', logprobs: [], obfuscation: 'x9Y8z7W6v5' }),
  event('response.output_text.delta', 11, { ...MSG, delta: 'lo', logprobs: [], obfuscation: 'Qr4' }),
  event('response.output_text.done', 12, { ...MSG, text: 'Hello', logprobs: [] }),
  event('response.content_part.done', 13, { ...MSG, part: PART('Hello') }),
  event('response.output_item.done', 14, { output_index: 1, item: MESSAGE_ITEM('completed', 'Hello') }),
].join('');
const COMPLETED = (seq: number) => event('response.completed', seq, { response: response('completed', { usage: USAGE }) });
const STREAM = CREATED + IN_PROGRESS + ITEMS + COMPLETED(15);
const ERROR = event('error', 99, { code: 'server_error', message: 'The server had an error.', param: null });

const forwarder = () => new ResponsesStreamForwarder(new ResponsesStreamMapper({ warnings: [] }));

function run(f: ResponsesStreamForwarder, chunks: string[]): TextStreamPart[] {
  return [...chunks.flatMap((c) => f.push(c)), ...f.end()];
}

const textOf = (parts: TextStreamPart[]) => parts.map((p) => (p.type === 'forwarded-events' ? p.text : '')).join('');
const generatedOf = (parts: TextStreamPart[]) => parts.map((p) => (p.type === 'forwarded-events' ? p.generated : '')).join('');
const natives = (parts: TextStreamPart[]) => parts.filter((p) => p.type === 'native-event');

/** The full path's parts for the same bytes (each event a native event beside its canonical parts). */
async function fullPath(sse: string): Promise<TextStreamPart[]> {
  const parts: TextStreamPart[] = [];
  async function* body() {
    yield sse;
  }
  for await (const p of readResponsesStream(parseSse(body()), new ResponsesStreamMapper({ warnings: [] }), true)) parts.push(p);
  return parts;
}

async function* each(parts: TextStreamPart[]) {
  yield* parts;
}

describe('ResponsesStreamForwarder', () => {
  it('forwards every item event as OpenAI wrote it (ids, padding, sequence numbers) and hands over the response events', () => {
    const parts = run(forwarder(), [STREAM]);
    expect(textOf(parts)).toBe(ITEMS);
    expect(generatedOf(parts)).toBe('ThinkingHello');
    expect(natives(parts).map((p) => p.type === 'native-event' && p.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.completed',
    ]);
    expect(natives(parts)[2]).toMatchObject({ dialect: 'openai-responses', data: { response: { id: 'resp_upstream01', usage: USAGE } } });
    expect(parts.map((p) => p.type)).toEqual([
      'native-event',
      'native-event',
      'forwarded-events',
      'native-event',
      'finish',
      'reasoning-delta',
      'text-delta',
    ]);
  });

  it('usage and finish are read on the side, and the gathered content reads back as the full path answer', async () => {
    const parts = run(forwarder(), [STREAM]);
    expect(parts.find((p) => p.type === 'finish')).toMatchObject({
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 30, totalTokens: 42, reasoningTokens: 20 },
    });
    const full = await fullPath(STREAM);
    expect(await collectStream('m', each(parts))).toEqual(await collectStream('m', each(full)));
    expect((await collectStream('m', each(parts))).content).toEqual([
      { type: 'reasoning', text: 'Thinking', signature: 'gAAAAB-sealed' },
      { type: 'text', text: 'Hello' },
    ]);
  });

  it('reads the usual delta by its one string, escapes and all, and forwards its bytes as they came', () => {
    const written = `{"type":"response.output_text.delta","sequence_number":10,"item_id":"msg_68b1c2d3","output_index":1,"content_index":0,"delta":"caf\\u00e9 \\"q\\" }],\\"logprobs\\":[]}","logprobs":[],"obfuscation":"Zz"}`;
    const frame = `event: response.output_text.delta\ndata: ${written}\n\n`;
    const parse = jest.spyOn(JSON, 'parse');
    const parts = run(forwarder(), [CREATED + frame + COMPLETED(11)]);
    // the fast path: the delta's string alone is parsed, never the whole event
    expect(parse.mock.calls.map(([text]) => text)).not.toContain(written);
    expect(parse).toHaveBeenCalledWith(written.slice(written.indexOf('"caf'), written.indexOf(',"logprobs":[],"obf')));
    parse.mockRestore();
    expect(textOf(parts)).toBe(frame);
    expect(generatedOf(parts)).toBe('café "q" }],"logprobs":[]}');
    expect(parts.at(-1)).toEqual({ type: 'text-delta', delta: 'café "q" }],"logprobs":[]}' });
  });

  it('forwards events without SSE names, and with the sequence number last, as the testkit fake writes them', () => {
    const delta = (text: string) =>
      `data: {"type":"response.output_text.delta",${JSON.stringify(MSG).slice(1, -1)},"delta":"${text}","logprobs":[],"sequence_number":3}\n\n`;
    const parts = run(forwarder(), [CREATED + delta('a') + delta('b') + COMPLETED(4)]);
    expect(textOf(parts)).toBe(delta('a') + delta('b'));
    expect(generatedOf(parts)).toBe('ab');
  });

  it('function calls: arguments forwarded as they came, read as calls on the side', async () => {
    const FC = { item_id: 'fc_68b1c2d3', output_index: 0 };
    const call = (status: string, args: string) => ({
      id: 'fc_68b1c2d3',
      type: 'function_call',
      status,
      arguments: args,
      call_id: 'call_Ab12Cd34',
      name: 'get_weather',
    });
    const items =
      event('response.output_item.added', 2, { output_index: 0, item: call('in_progress', '') }) +
      event('response.function_call_arguments.delta', 3, { ...FC, delta: '{"city":', obfuscation: 'k' }) +
      event('response.function_call_arguments.delta', 4, { ...FC, delta: '"Paris"}', obfuscation: 'mN' }) +
      event('response.function_call_arguments.done', 5, { ...FC, arguments: '{"city":"Paris"}' }) +
      event('response.output_item.done', 6, { output_index: 0, item: call('completed', '{"city":"Paris"}') });
    const sse = CREATED + IN_PROGRESS + items + COMPLETED(7);
    const parts = run(forwarder(), [sse]);
    expect(textOf(parts)).toBe(items);
    expect(parts.find((p) => p.type === 'finish')).toMatchObject({ finishReason: 'tool-calls' });
    const answer = await collectStream('m', each(parts));
    expect(answer).toEqual(await collectStream('m', each(await fullPath(sse))));
    expect(answer.content).toEqual([{ type: 'tool-call', id: 'call_Ab12Cd34', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  });

  it('one forwarded part per upstream read, held until the stream has content to show', () => {
    const f = forwarder();
    const before = CREATED + IN_PROGRESS + ITEMS.slice(0, ITEMS.indexOf('event: response.reasoning_summary_text.delta'));
    expect(f.push(before)).toEqual([]);
    const cut = STREAM.indexOf('"delta":"Hel"');
    const first = f.push(STREAM.slice(before.length, cut));
    expect(first.map((p) => p.type)).toEqual(['native-event', 'native-event', 'forwarded-events']);
    expect(first[2]).toMatchObject({ generated: 'Thinking' });
    const rest = [...f.push(STREAM.slice(cut)), ...f.end()];
    expect(rest.map((p) => p.type)).toEqual(['forwarded-events', 'native-event', 'finish', 'reasoning-delta', 'text-delta']);
    expect(textOf([...first, ...rest])).toBe(ITEMS);
  });

  it('a failure before the first part is thrown at once, so the call can fail over', () => {
    expect(() => forwarder().push(CREATED + ERROR)).toThrow(expect.objectContaining({ reason: 'upstream_unavailable' }));
    expect(() => forwarder().push('data: {not json\n\n')).toThrow(/not valid JSON/);
    const failed = event('response.failed', 2, {
      response: response('failed', { error: { code: 'rate_limit_exceeded', message: 'slow down' } }),
    });
    expect(() => forwarder().push(CREATED + failed)).toThrow(expect.objectContaining({ reason: 'rate_limited' }));
  });

  it('a failure after the first part ends the stream after the events before it, with the full path error', () => {
    const f = forwarder();
    const parts = f.push(CREATED + ITEMS.slice(0, ITEMS.indexOf('event: response.output_item.added', 10)) + ERROR + ITEMS);
    expect(textOf(parts)).toBe(ITEMS.slice(0, ITEMS.indexOf('event: response.output_item.added', 10)));
    expect(f.failed).toBe(true);
    expect(() => f.end()).toThrow(expect.objectContaining({ code: 'upstream_response_failed' }));
  });

  it('a stream that ends without response.completed fails as on the full path', () => {
    const f = forwarder();
    f.push(CREATED + ITEMS);
    expect(() => f.end()).toThrow(expect.objectContaining({ code: 'upstream_stream_truncated' }));
  });

  it.each([
    ['an unknown field', 'response.output_text.delta', { ...MSG, delta: 'x', logprobs: [], note: 'sk-upstream-secret' }],
    ['an item id of another shape', 'response.output_text.delta', { ...MSG, item_id: 'msg-sk-upstream-secret', delta: 'x' }],
    ['padding that is not a string', 'response.output_text.delta', { ...MSG, delta: 'x', obfuscation: { secret: 'sk' } }],
    [
      'an annotation',
      'response.output_text.annotation.added',
      { ...MSG, annotation_index: 0, annotation: { type: 'url_citation', url: 'https://x.example' } },
    ],
    [
      'a part with annotations',
      'response.content_part.done',
      { ...MSG, part: { ...PART('x'), annotations: [{ type: 'url_citation', url: 'https://x.example' }] } },
    ],
    [
      'a hosted tool item',
      'response.output_item.added',
      { output_index: 2, item: { id: 'ws_1', type: 'web_search_call', status: 'in_progress' } },
    ],
    ['an unknown status', 'response.output_item.done', { output_index: 1, item: MESSAGE_ITEM('sk-upstream-secret', 'Hello') }],
    [
      'a call id of another shape',
      'response.output_item.added',
      { output_index: 2, item: { type: 'function_call', call_id: 'call:secret' } },
    ],
    ['an unknown event', 'response.web_search_call.searching', { item_id: 'ws_1', output_index: 2 }],
  ])('%s: the event goes as a native event, between the forwarded ones', (_name, type, fields) => {
    const odd = event(type, 12, fields);
    const parts = run(forwarder(), [CREATED + ITEMS + odd + COMPLETED(13)]);
    expect(textOf(parts)).toBe(ITEMS);
    expect(natives(parts)).toHaveLength(3);
    expect(natives(parts)[1]).toEqual({
      type: 'native-event',
      dialect: 'openai-responses',
      event: type,
      data: JSON.parse(odd.split('data: ')[1]!),
    });
    const order = parts.map((p) => (p.type === 'native-event' ? p.event : p.type));
    expect(order.indexOf(type)).toBeGreaterThan(order.indexOf('forwarded-events'));
    expect(order.indexOf(type)).toBeLessThan(order.indexOf('response.completed'));
  });

  it("an event whose SSE name is not its own type goes as a native event under the upstream's name", () => {
    const renamed = `event: custom\ndata: ${JSON.stringify({ type: 'response.output_text.delta', ...MSG, delta: 'x' })}\n\n`;
    const parts = run(forwarder(), [CREATED + ITEMS + renamed + COMPLETED(13)]);
    expect(natives(parts)[1]).toMatchObject({ event: 'custom', data: { delta: 'x' } });
    expect(generatedOf(parts)).toBe('ThinkingHellox');
  });
});
