import { GatewayError, type StoredTurn } from '@gateway/core';
import { decodeInputItemsQuery, encodeInputItems, pageInputItems, type InputItem } from './responses.input-items';

const stored = (over: Partial<StoredTurn> = {}): Pick<StoredTurn, 'id' | 'conversation' | 'document'> => ({
  id: 'resp_1',
  document: { output: [{ type: 'message' }] },
  conversation: {
    system: 'Answer in French.',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Oslo?' },
          { type: 'image', mediaType: 'image/png', data: 'AAAA' },
          { type: 'image', url: 'https://x.test/a.png' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Need the tool.', signature: 'sig' },
          { type: 'text', text: 'Let me ' },
          { type: 'text', text: 'check.' },
          { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            name: 'get_weather',
            content: [
              { type: 'text', text: '{"temp_c":' },
              { type: 'text', text: '21}' },
            ],
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'It is 21 degrees.' }] },
    ],
  },
  ...over,
});

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (e) {
    return (e as GatewayError).code;
  }
};

describe('encodeInputItems', () => {
  it('renders the input as OpenAI lists it: system first, no trailing output', () => {
    const items = encodeInputItems(stored());
    expect(items.map((i) => i.type)).toEqual(['message', 'message', 'reasoning', 'message', 'function_call', 'function_call_output']);
    expect(items[0]).toEqual({
      type: 'message',
      id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      role: 'developer',
      content: [{ type: 'input_text', text: 'Answer in French.' }],
    });
    expect(items[1]).toEqual({
      type: 'message',
      id: expect.stringMatching(/^msg_/),
      role: 'user',
      content: [
        { type: 'input_text', text: 'Weather in Oslo?' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
        { type: 'input_image', image_url: 'https://x.test/a.png', detail: 'auto' },
      ],
    });
    expect(items[2]).toMatchObject({
      type: 'reasoning',
      id: expect.stringMatching(/^rs_/),
      content: [{ type: 'reasoning_text', text: 'Need the tool.' }],
      encrypted_content: 'sig',
    });
    expect(items[3]).toEqual({
      type: 'message',
      id: expect.stringMatching(/^msg_/),
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Let me check.', annotations: [], logprobs: [] }],
    });
    expect(items[4]).toEqual({
      type: 'function_call',
      id: expect.stringMatching(/^fc_/),
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
      status: 'completed',
    });
    expect(items[5]).toEqual({
      type: 'function_call_output',
      id: expect.stringMatching(/^fco_/),
      call_id: 'call_1',
      output: '{"temp_c":21}',
      status: 'completed',
    });
    expect(JSON.stringify(items)).not.toContain('21 degrees');
  });

  it('ids are stable across reads, distinct within a list, and differ between responses', () => {
    const ids = encodeInputItems(stored()).map((i) => i.id);
    expect(encodeInputItems(stored()).map((i) => i.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      encodeInputItems(stored({ id: 'resp_2' }))
        .map((i) => i.id)
        .filter((id) => ids.includes(id)),
    ).toEqual([]);
  });

  it('keeps a final assistant message when the response had no output (it was input), and skips an absent system', () => {
    const items = encodeInputItems(
      stored({
        document: { output: [] },
        conversation: {
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'hi' }] },
            { role: 'assistant', content: [{ type: 'text', text: 'prefill' }] },
          ],
        },
      }),
    );
    expect(items.map((i) => [i.type, i.role])).toEqual([
      ['message', 'user'],
      ['message', 'assistant'],
    ]);
  });

  it('a tool result with an image lists its parts', () => {
    const items = encodeInputItems(
      stored({
        conversation: {
          messages: [
            {
              role: 'tool',
              content: [
                {
                  type: 'tool-result',
                  toolCallId: 'c',
                  content: [
                    { type: 'text', text: 'see' },
                    { type: 'image', url: 'https://x.test/b.png' },
                  ],
                },
              ],
            },
          ],
        },
        document: { output: [] },
      }),
    );
    expect(items[0]!.output).toEqual([
      { type: 'input_text', text: 'see' },
      { type: 'input_image', image_url: 'https://x.test/b.png', detail: 'auto' },
    ]);
  });
});

describe('pageInputItems', () => {
  const items: InputItem[] = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, type: 'message' }));
  const ids = (page: { data: InputItem[] }) => page.data.map((i) => i.id);

  it('desc (newest first) and asc, with first/last ids and has_more', () => {
    expect(pageInputItems(items, { limit: 2, order: 'desc' })).toEqual({
      object: 'list',
      data: [items[4], items[3]],
      first_id: 'e',
      last_id: 'd',
      has_more: true,
    });
    expect(pageInputItems(items, { limit: 5, order: 'asc' })).toMatchObject({ first_id: 'a', last_id: 'e', has_more: false });
  });

  it('after continues behind the named item, in either order, until has_more is false', () => {
    expect(ids(pageInputItems(items, { limit: 2, order: 'asc', after: 'b' }))).toEqual(['c', 'd']);
    expect(ids(pageInputItems(items, { limit: 2, order: 'desc', after: 'b' }))).toEqual(['a']);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = pageInputItems(items, { limit: 1, order: 'asc', after });
      seen.push(...ids(page));
      if (!page.has_more) break;
      after = page.last_id!;
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('after the last item: an empty page; an unknown after: invalid_cursor', () => {
    expect(pageInputItems(items, { limit: 3, order: 'asc', after: 'e' })).toEqual({
      object: 'list',
      data: [],
      first_id: null,
      last_id: null,
      has_more: false,
    });
    expect(codeOf(() => pageInputItems(items, { limit: 3, order: 'asc', after: 'zz' }))).toBe('invalid_cursor');
  });
});

describe('decodeInputItemsQuery', () => {
  it("defaults to OpenAI's 20, newest first; include is accepted and ignored", () => {
    expect(decodeInputItemsQuery({})).toEqual({ limit: 20, order: 'desc', after: undefined });
    expect(decodeInputItemsQuery({ limit: '100', order: 'asc', after: 'msg_1', include: ['message.input_image.image_url'] })).toEqual({
      limit: 100,
      order: 'asc',
      after: 'msg_1',
    });
    expect(decodeInputItemsQuery({ limit: '1', after: '' })).toEqual({ limit: 1, order: 'desc', after: undefined });
  });

  it.each([
    [{ limit: '0' }, 'invalid_limit'],
    [{ limit: '101' }, 'invalid_limit'],
    [{ limit: '1.5' }, 'invalid_limit'],
    [{ limit: '' }, 'invalid_limit'],
    [{ limit: ['1', '2'] }, 'invalid_limit'],
    [{ order: 'newest' }, 'invalid_order'],
    [{ order: ['asc'] }, 'invalid_order'],
    [{ after: { a: 'b' } }, 'invalid_cursor'],
  ])('refuses %j with %s', (query, code) => {
    expect(codeOf(() => decodeInputItemsQuery(query))).toBe(code);
  });
});
