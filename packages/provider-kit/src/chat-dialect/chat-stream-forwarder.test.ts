import type { TextStreamPart } from '@gateway/core';
import { ChatStreamForwarder } from './chat-stream-forwarder';
import { ChatStreamMapper } from './map-chat-stream';

const FIELDS = { id: 'chatcmpl-gw', object: 'chat.completion.chunk', created: 5, model: 'client-model', system_fingerprint: 'fp_gw' };
const HEAD = '{"id":"chatcmpl-gw","object":"chat.completion.chunk","created":5,"model":"client-model","system_fingerprint":"fp_gw",';
const UP = '{"id":"chatcmpl-up","object":"chat.completion.chunk","created":1,"model":"up-model","system_fingerprint":"fp_up",';
const choice = (delta: object, finish: string | null = null) =>
  `"choices":[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}]`;
const event = (body: string) => `data: ${body}\n\n`;
const ROLE = event(`${UP}${choice({ role: 'assistant', content: '' })},"usage":null}`);
const TEXT = (t: string) => event(`${UP}${choice({ content: t })},"usage":null}`);
const STOP = event(`${UP}${choice({}, 'stop')},"usage":null}`);
const USAGE = event(`${UP}"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":2,"total_tokens":6}}`);
const DONE = 'data: [DONE]\n\n';

function forwarder(includeUsage = false) {
  return new ChatStreamForwarder({ dialect: 'openai-chat', fields: FIELDS }, includeUsage, new ChatStreamMapper({ warnings: [] }));
}

/** Every part of a whole stream given in the chunks. */
function run(f: ChatStreamForwarder, chunks: string[]): TextStreamPart[] {
  return [...chunks.flatMap((c) => f.push(c)), ...f.end()];
}

const textOf = (parts: TextStreamPart[]) => parts.map((p) => (p.type === 'forwarded-events' ? p.text : '')).join('');

describe('ChatStreamForwarder', () => {
  it("writes the client adapter's fields in place of the upstream's and leaves the rest of each event as it came", () => {
    const parts = run(forwarder(), [ROLE + TEXT('Hel') + TEXT('lo') + STOP + USAGE + DONE]);
    expect(textOf(parts)).toBe(
      [
        event(`${HEAD}${choice({ role: 'assistant', content: '' })}}`),
        event(`${HEAD}${choice({ content: 'Hel' })}}`),
        event(`${HEAD}${choice({ content: 'lo' })}}`),
        event(`${HEAD}${choice({}, 'stop')}}`),
      ].join(''),
    );
    // usage and finish read on the side, as the full path reads them
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 4, outputTokens: 2 } });
    expect(
      parts
        .filter((p) => p.type === 'forwarded-events')
        .map((p) => (p as { generated: string }).generated)
        .join(''),
    ).toBe('Hello');
  });

  it('keeps the usage chunk and field for a client that asked for them', () => {
    const parts = run(forwarder(true), [ROLE + TEXT('x') + STOP + USAGE + DONE]);
    expect(textOf(parts)).toContain(event(`${HEAD}"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":2,"total_tokens":6}}`));
    expect(textOf(parts)).toContain(event(`${HEAD}${choice({ content: 'x' })},"usage":null}`));
  });

  it('reads events split anywhere across upstream reads, one part per read', () => {
    const whole = ROLE + TEXT('abc') + TEXT('def') + STOP + DONE;
    const at = ROLE.length + TEXT('abc').length + 30;
    const cut = [whole.slice(0, 7), whole.slice(7, at), whole.slice(at)];
    const parts = run(forwarder(), cut);
    expect(textOf(parts)).toBe(textOf(run(forwarder(), [whole])));
    expect(parts.filter((p) => p.type === 'forwarded-events')).toHaveLength(2);
  });

  it('holds events until the stream has something to show, so failover stops where it does on the full path', () => {
    const f = forwarder();
    expect(f.push(ROLE)).toEqual([]);
    expect(f.push(TEXT('a'))).toEqual([expect.objectContaining({ type: 'forwarded-events', generated: 'a' })]);
    expect(textOf(f.push(STOP + DONE))).toBe(event(`${HEAD}${choice({}, 'stop')}}`));
  });

  it('re-encodes an event whose fields come in another order, and hands one with a field of its own over as a native event', () => {
    const reordered = event(`{"choices":[{"index":0,"delta":{"content":"z"}}],"model":"up-model","id":"x"}`);
    const extra = event(`${UP}${choice({ content: 'q' })},"upstream_note":"default"}`);
    const parts = run(forwarder(), [ROLE + reordered + extra + STOP + DONE]);
    expect(textOf(parts)).toContain(event(`${HEAD}"choices":[{"index":0,"delta":{"content":"z"}}]}`));
    const native = parts.find((p) => p.type === 'native-event');
    expect(native).toMatchObject({
      dialect: 'openai-chat',
      data: { ...FIELDS, upstream_note: 'default', choices: [{ delta: { content: 'q' } }] },
    });
  });

  it('ignores what comes after [DONE], and fails a stream that ends without its finish as the full path does', () => {
    expect(textOf(run(forwarder(), [ROLE + TEXT('a') + STOP + DONE + TEXT('late')]))).not.toContain('late');
    expect(() => run(forwarder(), [ROLE + TEXT('a')])).toThrow(expect.objectContaining({ reason: 'upstream_unavailable' }));
  });

  it('hands out the events before a failed one first, then fails; a failure before anything to show fails at once', () => {
    const error = event('{"error":{"message":"overloaded","type":"server_error"}}');
    const f = forwarder();
    const parts = f.push(ROLE + TEXT('a') + error + TEXT('b'));
    expect(textOf(parts)).toBe(
      event(`${HEAD}${choice({ role: 'assistant', content: '' })}}`) + event(`${HEAD}${choice({ content: 'a' })}}`),
    );
    expect(f.failed).toBe(true);
    expect(() => f.end()).toThrow();
    expect(() => forwarder().push(ROLE + error)).toThrow();
    expect(() => forwarder().push('data: {not json\n\n')).toThrow(expect.objectContaining({ reason: 'upstream_malformed_response' }));
  });

  it('reads the usual text event without parsing it whole, exactly as the parsed path does', () => {
    const tricky = ['say "hi"}', '\\', 'ü \u2028 ok', '"},"logprobs":null,"finish_reason":null}]}'];
    const plain = TEXT('a') + tricky.map(TEXT).join('');
    const noLogprobs = tricky
      .map((t) => event(`${UP}"choices":[{"index":0,"delta":${JSON.stringify({ content: t })},"finish_reason":null}]}`))
      .join('');
    for (const includeUsage of [false, true]) {
      for (const body of [plain, noLogprobs]) {
        const parts = run(forwarder(includeUsage), [ROLE + body + STOP + DONE]);
        const sent = textOf(parts)
          .split('\n\n')
          .filter(Boolean)
          .map((e) => JSON.parse(e.slice('data: '.length)));
        const expected = (ROLE + body + STOP)
          .split('\n\n')
          .filter(Boolean)
          .map((e) => {
            const { usage, ...rest } = JSON.parse(e.slice('data: '.length));
            return { ...rest, ...FIELDS, ...(includeUsage && usage !== undefined ? { usage } : {}) };
          });
        expect(sent).toEqual(expected);
        const generated = parts.map((p) => (p.type === 'forwarded-events' ? p.generated : '')).join('');
        expect(generated).toBe(body === plain ? `a${tricky.join('')}` : tricky.join(''));
      }
    }
  });

  it('parses an event that only looks like the usual one (another head, another field) and treats it by its fields', () => {
    const otherHead = event(
      `{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","service_tier":"x${'k'.repeat(8)}",${choice({ content: 'q' })}}`,
    );
    const parts = run(forwarder(), [ROLE + TEXT('a') + otherHead + STOP + DONE]);
    expect(parts.find((p) => p.type === 'native-event')).toMatchObject({ data: { service_tier: `x${'k'.repeat(8)}` } });
  });

  it("forwards OpenAI's own events (a tier before the choices, padding last) as they came, but for the adapter's fields", () => {
    const openai = (choices: string, tail = '') =>
      event(
        `{"id":"chatcmpl-D0q8","object":"chat.completion.chunk","created":1769092764,"model":"gpt-4o-mini-2024-07-18",` +
          `"service_tier":"default","system_fingerprint":"fp_29330a9688",${choices}${tail}}`,
      );
    const pad = (p: string) => `,"obfuscation":"${p}"`;
    const HELLO = choice({ content: 'Héllo' }).replace('é', '\\u00e9');
    const stream = [
      openai(choice({ role: 'assistant', content: '', refusal: null }), ',"usage":null' + pad('0d')),
      // as OpenAI may escape it: re-encoding would write the letter itself, so the bytes below show the event was forwarded
      openai(HELLO, ',"usage":null' + pad('ZGF')),
      openai(choice({ content: ', "world"' }), pad('lRK2aBv')),
      openai(choice({}, 'stop'), ',"usage":null' + pad('kJ')),
      openai('"choices":[]', ',"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}' + pad('x')),
      DONE,
    ];
    for (const includeUsage of [false, true]) {
      const parts = run(forwarder(includeUsage), [stream.join('')]);
      expect(parts.some((p) => p.type === 'native-event')).toBe(false);
      const sent = textOf(parts)
        .split('\n\n')
        .filter(Boolean)
        .map((e) => e.slice('data: '.length));
      const expected = stream.slice(0, includeUsage ? 5 : 4).map((e) => {
        const { usage, ...rest } = JSON.parse(e.slice('data: '.length, -2));
        return { ...rest, ...FIELDS, ...(includeUsage ? { usage } : {}) };
      });
      expect(sent.map((e) => JSON.parse(e))).toEqual(expected);
      // the text events keep OpenAI's order and bytes after the adapter's fields
      expect(sent[1]).toBe(`${HEAD}"service_tier":"default",${HELLO}${includeUsage ? ',"usage":null' : ''}${pad('ZGF')}}`);
      expect(parts.map((p) => (p.type === 'forwarded-events' ? p.generated : '')).join('')).toBe('Héllo, "world"');
      expect(parts.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 9, outputTokens: 3 } });
    }
  });

  it('hands over as a native event a tier OpenAI does not name, or a padding field that is not the last', () => {
    const odd = event(
      `${UP.replace('"system_fingerprint"', '"service_tier":"x-secret","system_fingerprint"')}${choice({ content: 'a' })}}`,
    );
    const notLast = event(`${UP}${choice({ content: 'b' })},"obfuscation":"q","extra":"y"}`);
    const parts = run(forwarder(), [ROLE + odd + notLast + STOP + DONE]);
    const natives = parts.filter((p) => p.type === 'native-event');
    expect(natives).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ service_tier: 'x-secret' }) }),
      expect.objectContaining({ data: expect.objectContaining({ obfuscation: 'q', extra: 'y' }) }),
    ]);
  });
});
