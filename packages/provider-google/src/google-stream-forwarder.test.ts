import type { TextStreamPart } from '@gateway/provider-kit';
import { GoogleStreamForwarder } from './google-stream-forwarder';
import { GoogleStreamMapper } from './map-google-stream';

const FIELDS = { modelVersion: 'client-model', responseId: 'gw-response' };
const UP_TAIL = '"modelVersion":"gemini-2.5-flash","responseId":"up-response"}';
const GW_TAIL = '"modelVersion":"client-model","responseId":"gw-response"}';
const USAGE = '"usageMetadata":{"promptTokenCount":4,"totalTokenCount":4,"promptTokensDetails":[{"modality":"TEXT","tokenCount":4}]}';
const LAST_USAGE = '"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":3,"totalTokenCount":7}';
/** A text event as the fake and the SDKs write it (no spaces), its text's JSON given as written. */
const textBody = (json: string, tail: string) =>
  `{"candidates":[{"content":{"parts":[{"text":${json}}],"role":"model"},"index":0}],${USAGE},${tail}`;
const TEXT = (t: string) => `data: ${textBody(JSON.stringify(t), UP_TAIL)}\n\n`;
const lastBody = (tail: string) =>
  `{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],${LAST_USAGE},${tail}`;
const LAST = `data: ${lastBody(UP_TAIL)}\n\n`;
const ERROR = `data: ${JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } })}\n\n`;

const forwarder = () => new GoogleStreamForwarder({ dialect: 'gemini-content', fields: FIELDS }, new GoogleStreamMapper({ warnings: [] }));

function run(f: GoogleStreamForwarder, chunks: string[]): TextStreamPart[] {
  return [...chunks.flatMap((c) => f.push(c)), ...f.end()];
}

const textOf = (parts: TextStreamPart[]) => parts.map((p) => (p.type === 'forwarded-events' ? p.text : '')).join('');

describe('GoogleStreamForwarder', () => {
  it("writes the client adapter's modelVersion and responseId in place of the upstream's and leaves the rest as it came", () => {
    const parts = run(forwarder(), [TEXT('Hel') + TEXT('lo') + LAST]);
    expect(textOf(parts)).toBe(
      `data: ${textBody('"Hel"', GW_TAIL)}\n\ndata: ${textBody('"lo"', GW_TAIL)}\n\ndata: ${lastBody(GW_TAIL)}\n\n`,
    );
    expect(parts.find((p) => p.type === 'forwarded-events')).toMatchObject({ generated: 'Hello' });
    // usage and finish read on the side, as the full path reads them
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 4, outputTokens: 3 } });
  });

  it('forwards the bytes of a text event as they came: an escape re-encoding would change stays as written', () => {
    const written = textBody('"caf\\u00e9 \\"q\\" }],\\"role\\":\\"model\\"}"', UP_TAIL);
    const parts = run(forwarder(), [`data: ${written}\n\n`, LAST]);
    expect(textOf(parts)).toContain(`data: ${textBody('"caf\\u00e9 \\"q\\" }],\\"role\\":\\"model\\"}"', GW_TAIL)}\n\n`);
    expect(parts.find((p) => p.type === 'forwarded-events')).toMatchObject({ generated: 'café "q" }],"role":"model"}' });
  });

  it('reads events written with a space after each colon, as the Gemini API writes them', () => {
    const spaced = (text: string) =>
      `data: {"candidates": [{"content": {"parts": [{"text": ${JSON.stringify(text)}}],"role": "model"},"index": 0}],` +
      `"usageMetadata": {"promptTokenCount": 4,"totalTokenCount": 4},"modelVersion": "gemini-2.5-flash","responseId": "up"}\n\n`;
    const parts = run(forwarder(), [spaced('a') + spaced('b') + LAST]);
    expect(textOf(parts)).toContain(
      `data: {"candidates": [{"content": {"parts": [{"text": "a"}],"role": "model"},"index": 0}],` +
        `"usageMetadata": {"promptTokenCount": 4,"totalTokenCount": 4},${GW_TAIL}\n\n`,
    );
    expect(textOf(parts)).not.toContain('gemini-2.5-flash');
    expect(parts.find((p) => p.type === 'forwarded-events')).toMatchObject({ generated: 'ab' });
  });

  it('splits events across reads: one forwarded part per read, held until the stream has content to show', () => {
    const f = forwarder();
    const whole = TEXT('Hi') + LAST;
    const cut = whole.indexOf('"role"');
    const next = whole.indexOf('\n\n') + 12; // the first event's end and the start of the last
    expect(f.push(whole.slice(0, cut))).toEqual([]);
    const first = f.push(whole.slice(cut, next));
    expect(first).toEqual([
      { type: 'forwarded-events', dialect: 'gemini-content', text: `data: ${textBody('"Hi"', GW_TAIL)}\n\n`, generated: 'Hi' },
    ]);
    const rest = [...f.push(whole.slice(next)), ...f.end()];
    expect(rest.map((p) => p.type)).toEqual(['forwarded-events', 'finish']);
  });

  it('an event without content is held, not sent, until one with content comes', () => {
    const f = forwarder();
    const empty = `data: {"candidates":[{"content":{"parts":[],"role":"model"},"index":0}],${USAGE},${UP_TAIL}\n\n`;
    expect(f.push(empty)).toEqual([]);
    const parts = f.push(TEXT('x'));
    expect(textOf(parts)).toContain('"parts":[],"role":"model"');
    expect(textOf(parts)).toContain('"text":"x"');
  });

  it('a failure before the first part is thrown at once, so the call can fail over', () => {
    const f = forwarder();
    expect(() => f.push(ERROR)).toThrow(expect.objectContaining({ reason: 'upstream_unavailable' }));
    expect(() => forwarder().push('data: {not json\n\n')).toThrow(/not valid JSON/);
  });

  it('a failure after the first part ends the stream after the events before it, with the full path error', () => {
    const f = forwarder();
    const parts = f.push(TEXT('partial') + ERROR + TEXT('ignored'));
    expect(textOf(parts)).toBe(`data: ${textBody('"partial"', GW_TAIL)}\n\n`);
    expect(f.failed).toBe(true);
    expect(() => f.end()).toThrow(expect.objectContaining({ reason: 'upstream_unavailable' }));
  });

  it('a stream that ends without a finish reason fails as on the full path', () => {
    const f = forwarder();
    f.push(TEXT('cut'));
    expect(() => f.end()).toThrow(/finishReason/);
  });

  it.each([
    ['an unknown field', { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' } }], createTime: 'secret' }],
    [
      'grounding metadata',
      { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, groundingMetadata: { webSearchQueries: ['q'] } }] },
    ],
    ['an unknown finish reason', { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason: 'NEW_REASON' }] }],
    [
      'safety ratings',
      {
        candidates: [
          {
            content: { parts: [{ text: 'x' }], role: 'model' },
            safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
          },
        ],
      },
    ],
    [
      'a usage string',
      { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' } }], usageMetadata: { trafficType: 'ON_DEMAND' } },
    ],
  ])('%s: the event goes as a native event, with the client adapter fields written in', (_name, event) => {
    const body = { ...event, modelVersion: 'gemini-2.5-flash', responseId: 'up-response' };
    const parts = run(forwarder(), [TEXT('a') + `data: ${JSON.stringify(body)}\n\n` + TEXT('b') + LAST]);
    expect(parts.map((p) => p.type)).toEqual(['forwarded-events', 'native-event', 'forwarded-events', 'finish']);
    expect(parts[1]).toEqual({ type: 'native-event', dialect: 'gemini-content', event: 'message', data: { ...event, ...FIELDS } });
    // the native event's text is counted with the events before it, as a cut-short stream is charged
    expect(parts[0]).toMatchObject({ generated: 'ax' });
    expect(parts[2]).toMatchObject({ generated: 'b' });
  });

  it('thoughts, signatures and function calls go as they came; the call is read on the side', () => {
    const thought = { candidates: [{ content: { parts: [{ text: 'hmm', thought: true }], role: 'model' }, index: 0 }] };
    const call = {
      candidates: [
        {
          content: { parts: [{ functionCall: { name: 'lookup', args: { q: 'x' } }, thoughtSignature: 'c2ln' }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
        },
      ],
    };
    const tail = (o: object) => `${JSON.stringify(o).slice(0, -1)},${UP_TAIL}`;
    const parts = run(forwarder(), [`data: ${tail(thought)}\n\ndata: ${tail(call)}\n\n`]);
    expect(textOf(parts)).toBe(
      `data: ${JSON.stringify(thought).slice(0, -1)},${GW_TAIL}\n\ndata: ${JSON.stringify(call).slice(0, -1)},${GW_TAIL}\n\n`,
    );
    expect(parts.find((p) => p.type === 'forwarded-events')).toMatchObject({ generated: 'hmm' });
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
  });

  it('an event without the upstream fields, or with them out of order, is rebuilt with the client adapter fields last', () => {
    const bare = { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason: 'STOP' }] };
    const swapped = `{"responseId":"up","candidates":[{"content":{"parts":[{"text":"y"}],"role":"model"}}],"modelVersion":"m"}`;
    const parts = run(forwarder(), [`data: ${swapped}\n\ndata: ${JSON.stringify(bare)}\n\n`]);
    const events = textOf(parts)
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.slice('data: '.length));
    expect(events[0]).toBe(`{"candidates":[{"content":{"parts":[{"text":"y"}],"role":"model"}}],${GW_TAIL}`);
    expect(events[1]).toBe(`${JSON.stringify(bare).slice(0, -1)},${GW_TAIL}`);
  });
});
