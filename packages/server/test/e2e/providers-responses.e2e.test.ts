import type { RecordedRequest } from '@gateway/testkit';
import { startProviderGateway, usageRow, type ProviderGateway, type UpstreamUnderTest } from '../support/provider-gateway';
import { BETA_KEY } from '../support/test-gateway';

/**
 * OpenAI's Responses API as an upstream (`options.api: "responses"`). A /v1/responses client is passed through:
 * the upstream receives exactly the client's body (modulo the model name) and the client gets the upstream's own
 * answer and events (modulo the gateway-owned response id and model). Other formats are translated.
 */
const UPSTREAMS: UpstreamUnderTest[] = [
  {
    name: 'responses',
    type: 'openai',
    dialect: 'openai-responses',
    model: 'via-responses',
    upstreamModel: 'gpt-5-mini',
    options: { api: 'responses' },
  },
  { name: 'chat', type: 'openai', dialect: 'openai', model: 'via-chat', upstreamModel: 'gpt-4o-mini', options: { api: 'chat' } },
  { name: 'strict', type: 'openai', dialect: 'openai', model: 'via-strict', upstreamModel: 'gpt-4o-mini', options: { api: 'chat' } },
  // no `api` option: the default (auto) sends a Responses client to the Responses API, others to chat completions
  { name: 'auto', type: 'openai', dialect: 'openai-responses', model: 'via-auto', upstreamModel: 'gpt-5-mini' },
];

let pg: ProviderGateway;
beforeAll(async () => {
  pg = await startProviderGateway(UPSTREAMS, (file) => ({
    ...file,
    providers: file.providers.map((p) => (p.id === 'strict' ? { ...p, hostedTools: 'refuse' as const } : p)),
    models: file.models.map((m) =>
      m.id === 'via-responses' || m.id === 'via-auto' ? { ...m, reasoningEfforts: ['low', 'medium', 'high'] } : m,
    ),
  }));
});
afterAll(async () => {
  await pg.stop();
});
beforeEach(() => Object.values(pg.fakes).forEach((f) => f.reset()));

const post = (path: string, body: unknown) =>
  fetch(`${pg.gw.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** SSE text → [event name, data] pairs. */
function sseEvents(text: string): Array<{ event: string; data: any }> {
  return text
    .split('\n\n')
    .filter((f) => f.trim())
    .map((f) => ({
      event: /^event: (.*)$/m.exec(f)?.[1] ?? '',
      data: ((d) => (d === '[DONE]' ? null : JSON.parse(d)))(/^data: (.*)$/m.exec(f)?.[1] ?? 'null'),
    }));
}

const upstream = (): RecordedRequest => pg.fakes.responses!.requests[0]!;

/** Everything a Codex-style client sends that the canonical model has no place for. */
const CLIENT_BODY = {
  model: 'via-responses',
  instructions: 'You are a coding agent.',
  input: [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first question' }] },
    {
      type: 'reasoning',
      id: 'rs_prev01',
      summary: [{ type: 'summary_text', text: 'thinking' }],
      encrypted_content: 'gAAAAsealed-by-openai',
    },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'first answer', annotations: [] }] },
    { role: 'user', content: 'second question' },
  ],
  tools: [
    {
      type: 'function',
      name: 'shell',
      description: 'Runs a command',
      parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
      strict: false,
    },
    { type: 'web_search', search_context_size: 'low' },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  reasoning: { effort: 'medium', summary: 'auto' },
  include: ['reasoning.encrypted_content'],
  store: false,
  text: { verbosity: 'low' },
  truncation: 'auto',
  prompt_cache_key: 'session-42',
  x_future_field: { nested: [1, 'two'] },
};

describe('an openai provider entry without options (api: auto)', () => {
  it.each([false, true])('passes a /v1/responses client through to the Responses API (stream: %s)', async (stream) => {
    const body = { ...CLIENT_BODY, model: 'via-auto', ...(stream ? { stream: true } : {}) };
    const res = await post('/v1/responses', body);
    if (res.status !== 200) throw new Error(await res.text());
    await res.text();
    expect(pg.fakes.auto!.requests[0]!.path).toBe('/v1/responses');
    expect(pg.fakes.auto!.requests[0]!.body).toEqual({ ...body, model: 'gpt-5-mini' });
  });

  it('sends a chat completions client to chat completions', async () => {
    await (await post('/v1/chat/completions', { model: 'via-auto', messages: [{ role: 'user', content: 'hi' }] })).text();
    expect(pg.fakes.auto!.requests[0]!.path).toBe('/v1/chat/completions');
  });
});

describe('/v1/responses → a Responses upstream (passthrough)', () => {
  it.each([false, true])('forwards exactly the client body but for the model (stream: %s)', async (stream) => {
    const body = stream ? { ...CLIENT_BODY, stream: true } : CLIENT_BODY;
    const res = await post('/v1/responses', body);
    if (res.status !== 200) throw new Error(await res.text());
    await res.text();
    expect(upstream().path).toBe('/v1/responses');
    expect(upstream().body).toEqual({ ...body, model: 'gpt-5-mini' });
    // the hosted tool reached an upstream that runs it: nothing dropped
    expect(res.headers.get('x-gateway-warnings')).toBeNull();
  });

  it('returns the upstream answer unchanged but for the gateway-owned id and model', async () => {
    const answer = {
      id: 'resp_upstream123',
      object: 'response',
      created_at: 1_700_000_123,
      status: 'completed',
      model: 'gpt-5-mini-2025-08-07',
      output: [
        { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'weather' } },
        { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAAnew-sealed' },
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Sunny.', annotations: [{ type: 'url_citation', url: 'https://example.com' }] }],
        },
      ],
      usage: {
        input_tokens: 31,
        input_tokens_details: { cached_tokens: 8 },
        output_tokens: 12,
        output_tokens_details: { reasoning_tokens: 5 },
        total_tokens: 43,
      },
      service_tier: 'default',
      a_field_of_tomorrow: true,
    };
    pg.fakes.responses!.enqueue({ raw: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) } });
    const res = await post('/v1/responses', { ...CLIENT_BODY, store: true });
    const got = (await res.json()) as any;
    expect(got.id).toMatch(/^resp_/);
    expect(got.id).not.toBe(answer.id);
    expect(got).toEqual({ ...answer, id: got.id, model: 'via-responses', previous_response_id: null });
    // the gateway stored its own id: GET serves the same document
    const stored = await fetch(`${pg.gw.url}/v1/responses/${got.id}`, { headers: { authorization: `Bearer ${BETA_KEY}` } });
    expect(await stored.json()).toEqual(got);
    const row = await usageRow(pg.gw, res.headers.get('x-request-id')!);
    expect(row).toMatchObject({ input_tokens: 31, output_tokens: 12, provider: 'responses' });
  });

  it('relays the upstream events unchanged but for the response id and model', async () => {
    const response = (status: string, extra = {}) => ({
      id: 'resp_up9',
      object: 'response',
      status,
      model: 'gpt-5-mini',
      output: [],
      ...extra,
    });
    const upstreamEvents = [
      { type: 'response.created', sequence_number: 0, response: response('in_progress') },
      {
        type: 'response.output_item.added',
        sequence_number: 1,
        output_index: 0,
        item: { id: 'ws_1', type: 'web_search_call', status: 'in_progress' },
      },
      { type: 'response.web_search_call.searching', sequence_number: 2, output_index: 0, item_id: 'ws_1' },
      {
        type: 'response.output_item.done',
        sequence_number: 3,
        output_index: 0,
        item: { id: 'ws_1', type: 'web_search_call', status: 'completed' },
      },
      {
        type: 'response.output_item.added',
        sequence_number: 4,
        output_index: 1,
        item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] },
      },
      {
        type: 'response.output_text.delta',
        sequence_number: 5,
        output_index: 1,
        item_id: 'msg_1',
        content_index: 0,
        delta: 'Sun',
        obfuscation: 'xy',
      },
      { type: 'response.output_text.delta', sequence_number: 6, output_index: 1, item_id: 'msg_1', content_index: 0, delta: 'ny.' },
      {
        type: 'response.completed',
        sequence_number: 7,
        response: response('completed', {
          usage: { input_tokens: 40, output_tokens: 4, total_tokens: 44 },
          output: [{ id: 'msg_1', type: 'message' }],
        }),
      },
    ];
    const sse = upstreamEvents.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
    pg.fakes.responses!.enqueue({ raw: { status: 200, headers: { 'content-type': 'text/event-stream' }, body: sse } });
    const res = await post('/v1/responses', { ...CLIENT_BODY, stream: true });
    const got = sseEvents(await res.text());
    const id = got[0]!.data.response.id;
    expect(id).toMatch(/^resp_/);
    const owned = (e: any) =>
      e.response ? { ...e, response: { ...e.response, id, model: 'via-responses', previous_response_id: null } } : e;
    expect(got).toEqual(upstreamEvents.map((e) => ({ event: e.type, data: owned(e) })));
    const row = await usageRow(pg.gw, res.headers.get('x-request-id')!);
    expect(row).toMatchObject({ input_tokens: 40, output_tokens: 4 });
  });

  it.each([false, true])('round-trips an encrypted reasoning item, and expands previous_response_id (stream: %s)', async (stream) => {
    pg.fakes.responses!.enqueue({ reply: { reasoning: { text: 'pondering', signature: 'gAAAAturn-one' }, text: 'one' } });
    const first = await post('/v1/responses', {
      model: 'via-responses',
      input: 'turn one',
      include: ['reasoning.encrypted_content'],
      stream,
    });
    const text = await first.text();
    const firstId = stream ? sseEvents(text)[0]!.data.response.id : JSON.parse(text).id;
    const reasoningItem = stream
      ? sseEvents(text).find((e) => e.data.type === 'response.output_item.done' && e.data.item.type === 'reasoning')!.data.item
      : JSON.parse(text).output[0];
    expect(reasoningItem.encrypted_content).toBe('gAAAAturn-one');

    // stateless (store: false, as Codex): the item goes back as the client holds it
    await (
      await post('/v1/responses', {
        model: 'via-responses',
        store: false,
        stream,
        input: [reasoningItem, { role: 'user', content: 'turn two' }],
      })
    ).text();
    expect(pg.fakes.responses!.requests[1]!.body.input[0]).toEqual(reasoningItem);

    // stored: previous_response_id names the gateway's response; the upstream gets that history instead
    await (await post('/v1/responses', { model: 'via-responses', previous_response_id: firstId, stream, input: 'turn three' })).text();
    const third = pg.fakes.responses!.requests[2]!.body;
    expect(third).not.toHaveProperty('previous_response_id');
    expect(third.input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'turn one' }] },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'pondering' }], encrypted_content: 'gAAAAturn-one' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'one', annotations: [] }] },
      { role: 'user', content: 'turn three' },
    ]);
  });
});

describe('other formats → a Responses upstream (translated)', () => {
  it.each([false, true])('sends chat completions as a Responses request and answers in chat (stream: %s)', async (stream) => {
    pg.fakes.responses!.enqueue({ reply: { text: 'Paris.', usage: { input: 20, output: 3 } } });
    const res = await post('/v1/chat/completions', {
      model: 'via-responses',
      stream,
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
      ],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const answer = stream
      ? sseEvents(text)
          .filter((e) => e.data?.choices)
          .map((e) => e.data.choices[0].delta.content ?? '')
          .join('')
      : JSON.parse(text).choices[0].message.content;
    expect(answer).toBe('Paris.');
    expect(upstream().body).toEqual({
      model: 'gpt-5-mini',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Capital of France?' }] }],
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} }, strict: false }],
      max_output_tokens: 50,
      store: false,
      include: ['reasoning.encrypted_content'],
      ...(stream ? { stream: true } : {}),
    });
    const row = await usageRow(pg.gw, res.headers.get('x-request-id')!);
    expect(row).toMatchObject({ input_tokens: 20, output_tokens: 3 });
  });
});

describe('hosted tools policy', () => {
  const withSearch = (model: string, stream = false) => ({
    model,
    stream,
    input: 'hi',
    tools: [{ type: 'web_search' }, { type: 'function', name: 'f', parameters: { type: 'object', properties: {} } }],
  });

  it.each([false, true])('drops them for an upstream without them and names them (default drop; stream: %s)', async (stream) => {
    const res = await post('/v1/responses', withSearch('via-chat', stream));
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get('x-gateway-warnings')).toContain('web_search: hosted tool dropped');
    expect(JSON.stringify(pg.fakes.chat!.requests[0]!.body.tools)).not.toContain('web_search');
    const row = await usageRow(pg.gw, res.headers.get('x-request-id')!);
    expect(row.warnings).toEqual(expect.arrayContaining([expect.stringContaining('web_search: hosted tool dropped')]));
  });

  it.each([false, true])('refuses them with a 400 naming the tool under hostedTools: refuse (stream: %s)', async (stream) => {
    const res = await post('/v1/responses', withSearch('via-strict', stream));
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error).toMatchObject({ code: 'unsupported_hosted_tool', param: 'tools[0]', type: 'invalid_request_error' });
    expect(body.error.message).toContain('"web_search"');
    expect(pg.fakes.strict!.requests).toHaveLength(0);
  });
});
