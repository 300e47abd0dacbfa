import { eventually, InMemoryConversationStore } from '@gateway/testkit';
import request from 'supertest';
import { ResponsesConversation, StoredConversations } from '@gateway/core';
import { openAiResponsesFormat } from '@gateway/wire-openai-responses';
import { expectOpenAiError } from './support/openai-error';
import { scriptedTextApp, scriptedTextPort, streamThenDisconnect } from './support/scripted-text-app';
import { ALPHA_KEY, BETA_KEY, startTextContractGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTextContractGateway();
});
afterAll(() => gw.stop());

const weather = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['city', 'days'],
  },
};

function post(body: object, key = ALPHA_KEY, path = '/v1/responses') {
  return request(gw.app).post(path).set('Authorization', `Bearer ${key}`).send(body);
}
const create = (body: object, key = ALPHA_KEY) => post({ model: 'sim-chat', ...body }, key);
const get = (id: string, key = ALPHA_KEY) => request(gw.app).get(`/v1/responses/${id}`).set('Authorization', `Bearer ${key}`);
const del = (id: string, key = ALPHA_KEY) => request(gw.app).delete(`/v1/responses/${id}`).set('Authorization', `Bearer ${key}`);
const textOf = (doc: any): string =>
  doc.output
    .filter((o: any) => o.type === 'message')
    .flatMap((o: any) => o.content.map((c: any) => c.text))
    .join('');

/** Raw SSE text → events; every message must carry an `event:` line naming its data's type. */
function events(text: string): Array<{ event: string; data: any }> {
  return text
    .split('\n\n')
    .filter((m) => m.trim())
    .map((m) => {
      const event = /^event: (.+)$/m.exec(m)?.[1];
      const data = JSON.parse(/^data: (.+)$/m.exec(m)![1]!);
      expect(event).toBe(data.type);
      return { event: event!, data };
    });
}

describe('POST /v1/responses: range rules (one accepted, one refused each)', () => {
  it.each([
    ['input string', { input: 'hi' }],
    [
      'input items',
      {
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'hi' },
              { type: 'input_image', image_url: 'https://example.test/a.png' },
            ],
          },
        ],
      },
    ],
    ['instructions', { input: 'hi', instructions: 'Be brief.' }],
    ['max_output_tokens', { input: 'hi', max_output_tokens: 1 }],
    ['temperature at 2', { input: 'hi', temperature: 2 }],
    ['temperature at 0', { input: 'hi', temperature: 0 }],
    ['top_p at 1', { input: 'hi', top_p: 1 }],
    ['top_p at 0', { input: 'hi', top_p: 0 }],
    ['stream false', { input: 'hi', stream: false }],
    ['function tools', { input: 'hi', tools: [weather] }],
    ['tool_choice auto', { input: 'hi', tools: [weather], tool_choice: 'auto' }],
    ['tool_choice disabled', { input: 'get_weather', tools: [weather], tool_choice: 'disabled' }],
    ['tool_choice none', { input: 'hi', tools: [weather], tool_choice: 'none' }],
    ['tool_choice required', { input: 'hi', tools: [weather], tool_choice: 'required' }],
    ['tool_choice naming a function', { input: 'hi', tools: [weather], tool_choice: { type: 'function', name: 'get_weather' } }],
    ['reasoning effort the model offers', { input: 'hi', reasoning: { effort: 'low' } }],
    ['reasoning summary', { input: 'hi', reasoning: { effort: 'medium', summary: 'concise' } }],
    ['store false', { input: 'hi', store: false }],
    ['metadata', { input: 'hi', metadata: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v'.repeat(512)])) }],
    ['text format json_schema', { input: 'hi', text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' } } } }],
    [
      'fields without canonical meaning',
      { input: 'hi', truncation: 'auto', parallel_tool_calls: false, include: [], prompt_cache_key: 'k', user: 'u' },
    ],
  ])('accepts %s', async (_name, body) => {
    const res = await create(body);
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('response');
  });

  it.each([
    ['missing model', { model: undefined, input: 'hi' }, 'missing_field', 'model'],
    ['input of the wrong type', { input: 42 }, 'invalid_request_body', 'input'],
    ['no input and no previous response', {}, 'missing_input', 'input'],
    ['instructions of the wrong type', { input: 'hi', instructions: 7 }, 'invalid_request_body', 'instructions'],
    ['max_output_tokens 0', { input: 'hi', max_output_tokens: 0 }, 'invalid_request_body', 'max_output_tokens'],
    ['temperature above 2', { input: 'hi', temperature: 2.01 }, 'invalid_request_body', 'temperature'],
    ['temperature below 0', { input: 'hi', temperature: -0.1 }, 'invalid_request_body', 'temperature'],
    ['top_p above 1', { input: 'hi', top_p: 1.5 }, 'invalid_request_body', 'top_p'],
    ['top_p below 0', { input: 'hi', top_p: -0.5 }, 'invalid_request_body', 'top_p'],
    ['stream not a boolean', { input: 'hi', stream: 'yes' }, 'invalid_request_body', 'stream'],
    [
      'an unknown tool type',
      { input: 'hi', tools: [{ type: 'web_search' }, { type: 'no_such_tool' }] },
      'unsupported_tool_type',
      'tools[1].type',
    ],
    ['a function tool without a name', { input: 'hi', tools: [{ type: 'function', parameters: {} }] }, 'missing_field', 'tools[0].name'],
    ['tool_choice outside the list', { input: 'hi', tools: [weather], tool_choice: 'sometimes' }, 'invalid_request_body', 'tool_choice'],
    [
      'tool_choice naming an unknown function',
      { input: 'hi', tools: [weather], tool_choice: { type: 'function', name: 'nope' } },
      'unknown_tool',
      'tool_choice.name',
    ],
    ['tool_choice required without tools', { input: 'hi', tool_choice: 'required' }, 'tools_required', 'tool_choice'],
    [
      'a reasoning effort the model lacks',
      { input: 'hi', reasoning: { effort: 'max' } },
      'unsupported_reasoning_effort',
      'reasoning.effort',
    ],
    [
      'a reasoning summary outside the list',
      { input: 'hi', reasoning: { summary: 'verbose' } },
      'invalid_request_body',
      'reasoning.summary',
    ],
    ['store not a boolean', { input: 'hi', store: 'no' }, 'invalid_request_body', 'store'],
    [
      '17 metadata keys',
      { input: 'hi', metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
      'invalid_request_body',
      'metadata',
    ],
    ['a metadata value over 512 characters', { input: 'hi', metadata: { k: 'v'.repeat(513) } }, 'invalid_request_body', 'metadata.k'],
    ['a metadata value that is not a string', { input: 'hi', metadata: { k: 1 } }, 'invalid_request_body', 'metadata.k'],
    ['an empty previous_response_id', { input: 'hi', previous_response_id: '' }, 'invalid_request_body', 'previous_response_id'],
    [
      'json_schema format without a schema',
      { input: 'hi', text: { format: { type: 'json_schema', name: 'out' } } },
      'missing_field',
      'text.format.schema',
    ],
    ['an unknown input item', { input: [{ type: 'no_such_item', id: 'msg_1' }] }, 'unsupported_input_item', 'input[0].type'],
    [
      'a function_call item without call_id',
      { input: [{ type: 'function_call', name: 'f', arguments: '{}' }] },
      'missing_field',
      'input[0].call_id',
    ],
    ['a message without content', { input: [{ role: 'user' }] }, 'missing_field', 'input[0].content'],
    ['an unknown role', { input: [{ role: 'robot', content: 'x' }] }, 'invalid_request_body', 'input[0].role'],
    [
      'a file part',
      { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1' }] }] },
      'unsupported_content_part',
      'input[0].content[0].type',
    ],
    ['background mode', { input: 'hi', background: true }, 'unsupported_background', 'background'],
  ])('refuses %s', async (_name, body, code, param) => {
    expectOpenAiError(await create(body), 400, code, param);
  });

  it('refuses reasoning on a model that cannot think, accepts the same request without it', async () => {
    expectOpenAiError(
      await post({ model: 'sim-chat-plain', input: 'hi', reasoning: { effort: 'low' } }, BETA_KEY),
      400,
      'unsupported_reasoning_effort',
      'reasoning.effort',
    );
    expect((await post({ model: 'sim-chat-plain', input: 'hi' }, BETA_KEY)).status).toBe(200);
  });

  it('a model outside the key group → 503 in the OpenAI shape; a missing key → 401', async () => {
    expectOpenAiError(await create({ model: 'sim-chat-plain', input: 'hi' }), 503, 'model_not_in_group', 'model');
    expectOpenAiError(await request(gw.app).post('/v1/responses').send({ model: 'sim-chat', input: 'hi' }), 401, 'missing_api_key');
  });

  it('malformed JSON → 400, never a stack trace', async () => {
    const res = await request(gw.app)
      .post('/v1/responses')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .set('content-type', 'application/json')
      .send('{"model":');
    expectOpenAiError(res, 400, 'invalid_json');
  });
});

describe('POST /v1/responses: the response object', () => {
  it('text: message item with output_text, usage with token details', async () => {
    const res = await create({ input: 'Tell me about rivers', instructions: 'Be brief.', metadata: { trace: 't1' }, temperature: 0.3 });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^resp_/),
      object: 'response',
      created_at: expect.any(Number),
      status: 'completed',
      model: 'sim-chat',
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      temperature: 0.3,
      metadata: { trace: 't1' },
      store: true,
      output: [
        {
          type: 'message',
          id: expect.stringMatching(/^msg_/),
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: expect.stringContaining('rivers'), annotations: [] }],
        },
      ],
      usage: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      },
    });
    const u = res.body.usage;
    expect(u.total_tokens).toBe(u.input_tokens + u.output_tokens);
  });

  it('reasoning: a reasoning item before the message, reasoning tokens counted', async () => {
    const res = await create({ input: 'Why is the sky blue?', reasoning: { effort: 'high', summary: 'auto' } });
    expect(res.body.output.map((o: any) => o.type)).toEqual(['reasoning', 'message']);
    expect(res.body.output[0]).toMatchObject({
      id: expect.stringMatching(/^rs_/),
      summary: [{ type: 'summary_text', text: expect.any(String) }],
      content: [{ type: 'reasoning_text' }],
    });
    expect(res.body.usage.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    expect(res.body.reasoning).toEqual({ effort: 'high', summary: 'auto' });
  });

  it('max_output_tokens cuts the answer: status incomplete', async () => {
    const res = await create({ input: 'Tell me about rivers', max_output_tokens: 2 });
    expect(res.body).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      usage: { output_tokens: 2 },
    });
  });

  it('a simulated upstream failure → 502 in the OpenAI shape, and nothing is stored', async () => {
    const before = Number((await gw.db.knex('responses').count({ n: '*' }))[0]!.n);
    expectOpenAiError(await create({ input: 'please [sim:fail] now' }), 502, 'simulated_failure');
    expectOpenAiError(await create({ input: 'please [sim:fail] now', stream: true }), 502, 'simulated_failure');
    expect(Number((await gw.db.knex('responses').count({ n: '*' }))[0]!.n)).toBe(before);
  });
});

describe('POST /v1/responses: streaming', () => {
  const TEXT_ORDER = [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.completed',
  ];
  const collapse = (types: string[]) => types.filter((t, i) => !(t.endsWith('.delta') && types[i - 1] === t));

  it('golden text stream: exact order, sequence numbers from 0, text equal to the non-streamed text', async () => {
    const body = { input: 'Describe a quiet harbor at dawn in a few words', instructions: 'Be vivid.' };
    const res = await create({ ...body, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const ev = events(res.text);
    expect(collapse(ev.map((e) => e.event))).toEqual(TEXT_ORDER);
    expect(ev.filter((e) => e.event === 'response.output_text.delta').length).toBeGreaterThan(1);
    expect(ev.map((e) => e.data.sequence_number)).toEqual(ev.map((_, i) => i));

    const [created, inProgress] = ev;
    expect(created!.data.response).toMatchObject({ status: 'in_progress', output: [] });
    // OpenAI's schema wants an object and a string: not known yet / not given → absent, never null
    expect(created!.data.response).not.toHaveProperty('usage');
    expect(created!.data.response).not.toHaveProperty('user');
    expect(inProgress!.data.response.id).toBe(created!.data.response.id);
    const item = ev[2]!.data;
    expect(item).toMatchObject({ output_index: 0, item: { type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
    expect(ev[3]!.data).toMatchObject({
      item_id: item.item.id,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '' },
    });
    const deltas = ev.filter((e) => e.event === 'response.output_text.delta');
    for (const d of deltas) expect(d.data).toMatchObject({ item_id: item.item.id, output_index: 0, content_index: 0 });
    const streamed = deltas.map((d) => d.data.delta).join('');

    const done = ev.find((e) => e.event === 'response.output_text.done')!.data;
    const completed = ev[ev.length - 1]!.data.response;
    const plain = (await create(body)).body;
    expect(streamed).toBe(textOf(plain));
    expect(done.text).toBe(streamed);
    expect(textOf(completed)).toBe(streamed);
    expect(completed).toMatchObject({ status: 'completed', usage: plain.usage, instructions: 'Be vivid.' });
    // the stored object is the completed one
    expect((await get(completed.id)).body).toEqual(completed);
  });

  it('golden tool-call stream: arguments deltas then done, for a schema-valid call', async () => {
    const res = await create({ input: 'What is the weather in Paris?', tools: [weather], tool_choice: 'required', stream: true });
    const ev = events(res.text);
    expect(collapse(ev.map((e) => e.event))).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(ev.map((e) => e.data.sequence_number)).toEqual(ev.map((_, i) => i));
    const done = ev.find((e) => e.event === 'response.function_call_arguments.done')!.data;
    const args = JSON.parse(done.arguments);
    expect(typeof args.city).toBe('string');
    expect(Number.isInteger(args.days) && args.days >= 1 && args.days <= 7).toBe(true);
    expect(
      ev
        .filter((e) => e.event === 'response.function_call_arguments.delta')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe(done.arguments);
    expect(ev[ev.length - 1]!.data.response.output).toEqual([
      {
        type: 'function_call',
        id: expect.stringMatching(/^fc_/),
        call_id: expect.any(String),
        name: 'get_weather',
        arguments: done.arguments,
        status: 'completed',
      },
    ]);
  });

  it('reasoning stream: the reasoning item streams before the message', async () => {
    const ev = events((await create({ input: 'Think first', reasoning: { effort: 'low' }, stream: true })).text);
    expect(collapse(ev.map((e) => e.event))).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.reasoning_text.delta',
      'response.reasoning_text.done',
      'response.content_part.done',
      'response.output_item.done',
      ...TEXT_ORDER.slice(2),
    ]);
    expect(ev[ev.length - 1]!.data.response.output.map((o: any) => o.type)).toEqual(['reasoning', 'message']);
  });

  it('a client that disconnects stops the upstream, and nothing is stored', async () => {
    const store = new InMemoryConversationStore();
    const saved = store.turns;
    const { port, seen } = scriptedTextPort([{ type: 'text-delta', delta: 'partial ' }], 'hang');
    const app = scriptedTextApp(openAiResponsesFormat, port, (d) => ({
      ...d,
      responsesConversation: new ResponsesConversation({ text: d.text, conversations: new StoredConversations(store) }),
      usage: { record() {}, flush: async () => {} },
      compactionSecret: 'contract-test-secret-1',
    }));
    const first = await streamThenDisconnect(
      app,
      '/v1/responses',
      { authorization: 'Bearer any' },
      { model: 'scripted', input: 'hi', stream: true },
    );
    expect(first).toContain('event: response.created');
    await eventually(() => seen.finished);
    expect(seen.aborted).toBe(true);
    expect(saved).toEqual([]);
  });
});

describe('stored responses', () => {
  it('previous_response_id continues the conversation', async () => {
    const first = (await create({ input: 'My name is Ada and I like rivers very much' })).body;
    const alone = (await create({ input: 'What is my name?' })).body;
    const follow = (await create({ input: 'What is my name?', previous_response_id: first.id })).body;
    expect(follow.previous_response_id).toBe(first.id);
    // the follow-up sent the whole history: the first question, its answer and the new question
    expect(follow.usage.input_tokens).toBe(first.usage.input_tokens + first.usage.output_tokens + alone.usage.input_tokens);
    const third = (await create({ input: 'And again?', previous_response_id: follow.id })).body;
    expect(third.usage.input_tokens).toBeGreaterThan(follow.usage.input_tokens + follow.usage.output_tokens);
  });

  it('tool round trip over previous_response_id: the output answers the stored call by name', async () => {
    const call = (await create({ input: 'Weather in Oslo?', tools: [weather], tool_choice: 'required' })).body;
    const fc = call.output[0];
    expect(fc).toMatchObject({ type: 'function_call', name: 'get_weather' });
    const answer = (
      await create({
        previous_response_id: call.id,
        tools: [weather],
        input: [{ type: 'function_call_output', call_id: fc.call_id, output: '{"temp_c":21}' }],
      })
    ).body;
    expect(textOf(answer)).toContain('get_weather');
    expect(textOf(answer)).toContain('21');
  });

  it('GET returns the stored object; DELETE removes it once', async () => {
    const made = (await create({ input: 'keep me' })).body;
    const got = await get(made.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(made);
    const gone = await del(made.id);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ id: made.id, object: 'response', deleted: true });
    expectOpenAiError(await get(made.id), 404, 'response_not_found', 'response_id');
    expectOpenAiError(await del(made.id), 404, 'response_not_found', 'response_id');
    expectOpenAiError(await create({ input: 'x', previous_response_id: made.id }), 404, 'response_not_found', 'previous_response_id');
  });

  it('GET with stream=true is refused clearly', async () => {
    const made = (await create({ input: 'x' })).body;
    expectOpenAiError(
      await request(gw.app).get(`/v1/responses/${made.id}?stream=true`).set('Authorization', `Bearer ${ALPHA_KEY}`),
      400,
      'unsupported_stream',
      'stream',
    );
  });

  it('store:false answers but keeps nothing', async () => {
    const made = (await create({ input: 'forget me', store: false })).body;
    expect(made.store).toBe(false);
    expectOpenAiError(await get(made.id), 404, 'response_not_found');
    expectOpenAiError(await create({ input: 'x', previous_response_id: made.id }), 404, 'response_not_found');
    const streamed = events((await create({ input: 'forget me too', store: false, stream: true })).text);
    expectOpenAiError(await get(streamed[0]!.data.response.id), 404, 'response_not_found');
  });

  it("another account's id behaves exactly as a missing one", async () => {
    const mine = (await create({ input: 'private' })).body;
    const strip = (body: any, id: string) => JSON.parse(JSON.stringify(body).split(id).join('<id>'));
    const missing = 'resp_doesnotexist000000000';
    for (const [theirs, unknown] of [
      [await get(mine.id, BETA_KEY), await get(missing, BETA_KEY)],
      [await del(mine.id, BETA_KEY), await del(missing, BETA_KEY)],
      [
        await create({ input: 'x', previous_response_id: mine.id }, BETA_KEY),
        await create({ input: 'x', previous_response_id: missing }, BETA_KEY),
      ],
    ]) {
      expectOpenAiError(theirs!, 404, 'response_not_found');
      expect(unknown!.status).toBe(404);
      expect(strip(theirs!.body, mine.id)).toEqual(strip(unknown!.body, missing));
    }
    expect((await get(mine.id)).status).toBe(200);
  });
});

describe('POST /v1/responses/compact', () => {
  const long = (topic: string) => `Tell me everything about ${topic}: ${Array.from({ length: 60 }, (_, i) => `${topic}${i}`).join(' ')}`;

  async function conversation(turns: string[], system?: string): Promise<any> {
    let prev: any;
    for (const [i, t] of turns.entries()) {
      const input =
        i === 0 && system
          ? [
              { role: 'developer', content: system },
              { role: 'user', content: t },
            ]
          : t;
      prev = (await create({ input, ...(prev ? { previous_response_id: prev.id } : {}) })).body;
    }
    return prev;
  }

  it('compacts a stored conversation into one opaque item that a later call accepts as input', async () => {
    const last = await conversation([long('rivers'), long('mountains'), long('deserts'), 'short question four'], 'Answer in English.');
    const res = await post(
      { model: 'sim-chat', previous_response_id: last.id, instructions: 'Be brief.' },
      ALPHA_KEY,
      '/v1/responses/compact',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^resp_/),
      object: 'response.compaction',
      created_at: expect.any(Number),
      error: null,
      output: [{ type: 'compaction', id: expect.stringMatching(/^cmp_/), encrypted_content: expect.stringMatching(/^[A-Za-z0-9_-]+$/) }],
      usage: expect.objectContaining({
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      }),
    });
    expect(res.body.usage.output_tokens).toBeLessThan(res.body.usage.input_tokens);
    expect(Buffer.from(res.body.output[0].encrypted_content, 'base64url').toString('latin1')).not.toContain('rivers');

    const next = 'What did we discuss?';
    const viaCompaction = await create({ input: [...res.body.output, { role: 'user', content: next }] });
    expect(viaCompaction.status).toBe(200);
    const viaHistory = (await create({ input: next, previous_response_id: last.id })).body;
    expect(viaCompaction.body.usage.input_tokens).toBeLessThan(viaHistory.usage.input_tokens);
    expect(textOf(viaCompaction.body)).toContain(next);

    // and the compacted conversation itself continues with previous_response_id
    const again = await create({ input: 'One more thing', previous_response_id: viaCompaction.body.id });
    expect(again.status).toBe(200);
  });

  it('compacts plain input, including an earlier compaction item', async () => {
    const first = await post(
      {
        model: 'sim-chat',
        input: [
          { role: 'user', content: long('lakes') },
          { role: 'assistant', content: 'Lakes are still.' },
          { role: 'user', content: 'more' },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: 'last' },
        ],
      },
      ALPHA_KEY,
      '/v1/responses/compact',
    );
    expect(first.status).toBe(200);
    const second = await post(
      { model: 'sim-chat', input: [...first.body.output, { role: 'user', content: 'and rivers' }] },
      ALPHA_KEY,
      '/v1/responses/compact',
    );
    expect(second.status).toBe(200);
    expect(second.body.output).toHaveLength(1);
    expect((await create({ input: second.body.output })).status).toBe(200);
  });

  it('a tampered encrypted_content → 400 naming the item; another account cannot open it either', async () => {
    const made = (await post({ model: 'sim-chat', input: 'a b c' }, ALPHA_KEY, '/v1/responses/compact')).body;
    const token: string = made.output[0].encrypted_content;
    const flipped = token.slice(0, 20) + (token[20] === 'A' ? 'B' : 'A') + token.slice(21);
    const tampered = [
      { ...made.output[0], encrypted_content: flipped },
      { role: 'user', content: 'next' },
    ];
    expectOpenAiError(await create({ input: tampered }), 400, 'invalid_encrypted_content', 'input[0].encrypted_content');
    expectOpenAiError(
      await post({ model: 'sim-chat', input: tampered }, ALPHA_KEY, '/v1/responses/compact'),
      400,
      'invalid_encrypted_content',
      'input[0].encrypted_content',
    );
    expectOpenAiError(await create({ input: made.output }, BETA_KEY), 400, 'invalid_encrypted_content');
    expectOpenAiError(await create({ input: [{ type: 'compaction', encrypted_content: 'garbage' }] }), 400, 'invalid_encrypted_content');
  });

  it.each([
    ['missing model', { input: 'x' }, 400, 'missing_field', 'model'],
    ['nothing to compact', { model: 'sim-chat' }, 400, 'missing_input', 'input'],
    ['input of the wrong type', { model: 'sim-chat', input: 5 }, 400, 'invalid_request_body', 'input'],
    [
      'an unknown previous response',
      { model: 'sim-chat', previous_response_id: 'resp_nope' },
      404,
      'response_not_found',
      'previous_response_id',
    ],
    ['a model outside the group', { model: 'sim-chat-plain', input: 'x' }, 503, 'model_not_in_group', 'model'],
  ])('refuses %s', async (_name, body, status, code, param) => {
    expectOpenAiError(await post(body, ALPHA_KEY, '/v1/responses/compact'), status, code, param);
  });
});

describe('GET /v1/responses/{id}/input_items and POST /v1/responses/{id}/cancel', () => {
  const items = (id: string, query = '', key = ALPHA_KEY) =>
    request(gw.app).get(`/v1/responses/${id}/input_items${query}`).set('Authorization', `Bearer ${key}`);
  const cancel = (id: string, key = ALPHA_KEY) => request(gw.app).post(`/v1/responses/${id}/cancel`).set('Authorization', `Bearer ${key}`);
  const summary = (item: any) => [
    item.type,
    item.role ?? item.name ?? null,
    item.content?.[0]?.text ?? item.output ?? item.arguments ?? null,
  ];

  // A: system item + user text, answered by a tool call; B: the tool's output over previous_response_id; C: a text follow-up.
  let a: any;
  let b: any;
  let c: any;
  beforeAll(async () => {
    a = (
      await create({
        instructions: 'Not an input item.',
        tools: [weather],
        tool_choice: 'required',
        input: [
          { role: 'system', content: 'Answer briefly.' },
          { role: 'user', content: 'Weather in Oslo?' },
        ],
      })
    ).body;
    expect(a.output[0]).toMatchObject({ type: 'function_call', name: 'get_weather' });
    b = (
      await create({
        previous_response_id: a.id,
        tools: [weather],
        input: [{ type: 'function_call_output', call_id: a.output[0].call_id, output: '{"temp_c":21}' }],
      })
    ).body;
    c = (await create({ previous_response_id: b.id, input: 'Thanks!' })).body;
    expect(c.status).toBe('completed');
  });

  it('lists the input newest first by default: no instructions, no own output', async () => {
    const res = await items(a.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'list',
      has_more: false,
      first_id: res.body.data[0].id,
      last_id: res.body.data[1].id,
      data: [
        { type: 'message', id: expect.stringMatching(/^msg_/), role: 'user', content: [{ type: 'input_text', text: 'Weather in Oslo?' }] },
        {
          type: 'message',
          id: expect.stringMatching(/^msg_/),
          role: 'developer',
          content: [{ type: 'input_text', text: 'Answer briefly.' }],
        },
      ],
    });
  });

  it('asc gives the inherited history in conversation order, with the tool round trip', async () => {
    const res = await items(c.id, '?order=asc');
    expect(res.body.data.map(summary)).toEqual([
      ['message', 'developer', 'Answer briefly.'],
      ['message', 'user', 'Weather in Oslo?'],
      ['function_call', 'get_weather', a.output[0].arguments],
      ['function_call_output', null, '{"temp_c":21}'],
      ['message', 'assistant', textOf(b)],
      ['message', 'user', 'Thanks!'],
    ]);
    expect(res.body.data[2]).toEqual({
      type: 'function_call',
      id: expect.stringMatching(/^fc_/),
      call_id: a.output[0].call_id,
      name: 'get_weather',
      arguments: a.output[0].arguments,
      status: 'completed',
    });
    expect(res.body.data[3]).toEqual({
      type: 'function_call_output',
      id: expect.any(String),
      call_id: a.output[0].call_id,
      output: '{"temp_c":21}',
      status: 'completed',
    });
    expect(res.body.data[4]).toMatchObject({ role: 'assistant', status: 'completed', content: [{ type: 'output_text', annotations: [] }] });
    const desc = await items(c.id, '?order=desc');
    expect(desc.body.data).toEqual([...res.body.data].reverse());
    // ids are stable across reads; the same history under another response gets that response's own ids
    expect((await items(c.id, '?order=asc')).body).toEqual(res.body);
    const ofB = (await items(b.id, '?order=asc')).body.data;
    expect(ofB.map(summary)).toEqual(res.body.data.slice(0, 4).map(summary));
    expect(ofB.map((i: any) => i.id)).not.toEqual(res.body.data.slice(0, 4).map((i: any) => i.id));
  });

  it.each(['asc', 'desc'])('limit=1 with after visits every item once (%s)', async (order) => {
    const all = (await items(c.id, `?order=${order}`)).body.data.map((i: any) => i.id);
    const seen: string[] = [];
    let after = '';
    for (let i = 0; i < 10; i++) {
      const page = await items(c.id, `?order=${order}&limit=1${after ? `&after=${after}` : ''}&include[]=message.input_image.image_url`);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.first_id).toBe(page.body.last_id);
      seen.push(page.body.last_id);
      if (!page.body.has_more) break;
      after = page.body.last_id;
    }
    expect(seen).toEqual(all);
    expect(seen).toHaveLength(6);
  });

  it.each([
    ['limit 0', '?limit=0', 'invalid_limit', 'limit'],
    ['limit 101', '?limit=101', 'invalid_limit', 'limit'],
    ['limit not a number', '?limit=ten', 'invalid_limit', 'limit'],
    ['limit twice', '?limit=1&limit=2', 'invalid_limit', 'limit'],
    ['order outside the list', '?order=newest', 'invalid_order', 'order'],
    ['after naming no item of the list', '?after=msg_nope', 'invalid_cursor', 'after'],
  ])('refuses %s', async (_name, query, code, param) => {
    expectOpenAiError(await items(a.id, query), 400, code, param);
  });

  it('an item id of another response is no cursor here', async () => {
    const other = (await items(c.id)).body.data[0].id;
    expectOpenAiError(await items(a.id, `?after=${other}`), 400, 'invalid_cursor', 'after');
  });

  it('cancel: a stored response was never in the background → 400 not_background, with or without a body', async () => {
    for (const res of [
      await cancel(a.id),
      await cancel(c.id).send({}),
      await cancel(c.id).set('content-type', 'application/json').send(''),
    ]) {
      expectOpenAiError(res, 400, 'not_background');
      expect(res.body.error.message).toBe('Only responses created with background=true can be cancelled.');
    }
    expect((await get(a.id)).body).toEqual(a);
  });

  it("unknown, deleted and another account's ids all get the very same 404", async () => {
    const strip = (body: any, id: string) => JSON.parse(JSON.stringify(body).split(id).join('<id>'));
    const missing = 'resp_doesnotexist000000000';
    for (const [theirs, unknown] of [
      [await items(a.id, '', BETA_KEY), await items(missing, '', BETA_KEY)],
      [await cancel(a.id, BETA_KEY), await cancel(missing, BETA_KEY)],
    ]) {
      expectOpenAiError(theirs!, 404, 'response_not_found', 'response_id');
      expectOpenAiError(unknown!, 404, 'response_not_found', 'response_id');
      expect(strip(theirs!.body, a.id)).toEqual(strip(unknown!.body, missing));
    }
    const gone = (await create({ input: 'short-lived' })).body;
    expect((await items(gone.id)).status).toBe(200);
    await del(gone.id);
    expectOpenAiError(await items(gone.id), 404, 'response_not_found');
    expectOpenAiError(await cancel(gone.id), 404, 'response_not_found');
  });
});
