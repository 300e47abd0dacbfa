import fc from 'fast-check';
import { parseSse, sseJson, type SseEvent } from './sse-parser';

async function parse(...chunks: Array<string | Uint8Array>): Promise<SseEvent[]> {
  async function* source() {
    for (const c of chunks) yield c;
  }
  const out: SseEvent[] = [];
  for await (const ev of parseSse(source())) out.push(ev);
  return out;
}

describe('parseSse', () => {
  it('splits on blank lines and keeps event names (Anthropic framing)', async () => {
    const text = 'event: message_start\ndata: {"type":"message_start"}\n\nevent: ping\ndata: {"type":"ping"}\n\n';
    expect(await parse(text)).toEqual([
      { event: 'message_start', data: '{"type":"message_start"}' },
      { event: 'ping', data: '{"type":"ping"}' },
    ]);
  });

  it('names bare data events "message" (OpenAI and Gemini framing)', async () => {
    expect(await parse('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'message', data: '[DONE]' },
    ]);
  });

  it('accepts \\r\\n and lone \\r line ends', async () => {
    expect(await parse('data: one\r\n\r\ndata: two\r\rdata: three\n\n')).toEqual([
      { event: 'message', data: 'one' },
      { event: 'message', data: 'two' },
      { event: 'message', data: 'three' },
    ]);
  });

  it('skips comments and joins multi-line data with \\n', async () => {
    expect(await parse(': keep-alive\ndata: line 1\n: in between\ndata: line 2\n\n')).toEqual([
      { event: 'message', data: 'line 1\nline 2' },
    ]);
  });

  it('drops one leading space only, accepts fields without a colon, keeps ids', async () => {
    expect(await parse('id: 7\ndata:  two spaces\ndata\n\n')).toEqual([{ event: 'message', data: ' two spaces\n', id: '7' }]);
  });

  it('does not dispatch an event with no data, and drops an unterminated last event', async () => {
    expect(await parse('event: ping\n\ndata: whole\n\ndata: {"cut": tr')).toEqual([{ event: 'message', data: 'whole' }]);
  });

  it('handles a \\r\\n split across two chunks as one line end', async () => {
    expect(await parse('data: a\r', '\n\r', '\ndata: b\n\n')).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
  });

  it('decodes UTF-8 characters split across byte chunks', async () => {
    const bytes = Buffer.from('data: héllo 🌍\n\n', 'utf8');
    const cut = bytes.indexOf(0xf0) + 2;
    expect(await parse(bytes.subarray(0, cut), bytes.subarray(cut))).toEqual([{ event: 'message', data: 'héllo 🌍' }]);
  });

  it('gives the same events however the bytes are chunked', async () => {
    const text = 'event: a\r\ndata: x\r\n\r\n: c\ndata: y\ndata: z\n\nevent: b\rdata: 🌍\r\r';
    const whole = await parse(text);
    const bytes = Buffer.from(text, 'utf8');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const sorted = [...cuts].sort((a, b) => a - b);
        const pieces = [0, ...sorted].map((start, i) => bytes.subarray(start, sorted[i] ?? bytes.length));
        expect(await parse(...pieces)).toEqual(whole);
      }),
    );
    expect(whole).toHaveLength(3);
  });
});

describe('sseJson', () => {
  it('parses JSON data and reads [DONE] as the end', () => {
    expect(sseJson({ event: 'message', data: '{"x":1}' })).toEqual({ x: 1 });
    expect(sseJson({ event: 'message', data: '[DONE]' })).toBeUndefined();
    expect(() => sseJson({ event: 'message', data: '{oops' })).toThrow(SyntaxError);
  });
});
