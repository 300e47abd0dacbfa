import OpenAI from 'openai';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';

let gw: TestGateway;
let client: OpenAI;
beforeAll(async () => {
  gw = await startTestGateway();
  client = new OpenAI({ apiKey: ALPHA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await gw.stop();
});

const weatherParams = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
  required: ['city', 'days'],
};

describe('openai 6.x chat completions against the gateway', () => {
  it('chat.completions.create', async () => {
    const c = await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'Hello from the SDK' }] });
    expect(c.object).toBe('chat.completion');
    expect(c.choices[0]!.finish_reason).toBe('stop');
    expect(c.choices[0]!.message.content).toContain('Hello from the SDK');
    expect(c.usage?.prompt_tokens).toBe(4);
  });

  it('streaming with include_usage: text equals the plain answer, usage arrives last', async () => {
    const messages = [{ role: 'user' as const, content: 'Stream a short answer please' }];
    const stream = await client.chat.completions.create({
      model: 'sim-chat',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    const plain = await client.chat.completions.create({ model: 'sim-chat', messages });
    expect(text).toBe(plain.choices[0]!.message.content);
    expect(finish).toBe('stop');
    expect(usage).toEqual(plain.usage);
  });

  it('tools round trip', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: weatherParams } },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Oslo?' }];
    const first = await client.chat.completions.create({ model: 'sim-chat', messages, tools, tool_choice: 'required' });
    const call = first.choices[0]!.message.tool_calls?.[0];
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call?.type).toBe('function');
    const fn = (call as OpenAI.ChatCompletionMessageFunctionToolCall).function;
    expect(fn.name).toBe('get_weather');
    expect(JSON.parse(fn.arguments)).toEqual({ city: expect.any(String), days: expect.any(Number) });
    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call!.id, content: '{"temp_c":7}' });
    const second = await client.chat.completions.create({ model: 'sim-chat', messages, tools });
    expect(second.choices[0]!.message.content).toBe('The tool get_weather returned: {"temp_c":7}');
  });

  it('a refused field surfaces as BadRequestError naming the param', async () => {
    const err = await client.chat.completions
      .create({ model: 'sim-chat', messages: [{ role: 'user', content: 'x' }], temperature: 3 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.param).toBe('temperature');
  });
});

describe('openai 6.x responses against the gateway', () => {
  it('responses.create', async () => {
    const r = await client.responses.create({ model: 'sim-chat', input: 'Hello responses', instructions: 'Be brief.' });
    expect(r.object).toBe('response');
    expect(r.status).toBe('completed');
    expect(r.output_text).toContain('Hello responses');
    expect(r.usage?.total_tokens).toBe((r.usage?.input_tokens ?? 0) + (r.usage?.output_tokens ?? 0));
  });

  it('responses.inputTokens.count: what responses.create then bills, the stored history of previous_response_id included', async () => {
    const first = await client.responses.create({ model: 'sim-chat', input: 'Name three rivers', instructions: 'Be brief.' });
    const params = { model: 'sim-chat', input: 'And three lakes?', instructions: 'Be brief.', previous_response_id: first.id };
    const counted = await client.responses.inputTokens.count(params);
    expect(counted.object).toBe('response.input_tokens');
    const created = await client.responses.create(params);
    expect(counted.input_tokens).toBe(created.usage?.input_tokens);
    expect(counted.input_tokens).toBeGreaterThan(first.usage?.input_tokens ?? 0);
    await expect(client.responses.inputTokens.count({ ...params, previous_response_id: 'resp_missing' })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
  });

  it('responses.stream(): deltas and finalResponse agree with responses.create', async () => {
    const params = { model: 'sim-chat', input: 'Stream me a harbor', reasoning: { effort: 'low' as const, summary: 'auto' as const } };
    const stream = client.responses.stream(params);
    let deltas = '';
    const types: string[] = [];
    stream.on('response.output_text.delta', (e) => {
      deltas += e.delta;
    });
    stream.on('event', (e) => {
      types.push(e.type);
    });
    const final = await stream.finalResponse();
    expect(types[0]).toBe('response.created');
    expect(types[types.length - 1]).toBe('response.completed');
    expect(final.status).toBe('completed');
    expect(final.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    const plain = await client.responses.create(params);
    expect(deltas).toBe(plain.output_text);
    expect(final.output_text).toBe(plain.output_text);
    expect((await client.responses.retrieve(final.id)).output_text).toBe(final.output_text);
  });

  it('responses.stream() with a tool: the function call arrives whole', async () => {
    const final = await client.responses
      .stream({
        model: 'sim-chat',
        input: 'weather in Rome',
        tools: [{ type: 'function', name: 'get_weather', parameters: weatherParams, strict: false }],
        tool_choice: 'required',
      })
      .finalResponse();
    const call = final.output.find((o) => o.type === 'function_call');
    expect(call?.type === 'function_call' && call.name).toBe('get_weather');
    expect(call?.type === 'function_call' && JSON.parse(call.arguments)).toEqual({ city: expect.any(String), days: expect.any(Number) });
  });

  it('a previous_response_id follow-up, then retrieve and delete', async () => {
    const first = await client.responses.create({ model: 'sim-chat', input: 'My name is Ada' });
    const second = await client.responses.create({ model: 'sim-chat', input: 'What is my name?', previous_response_id: first.id });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.usage!.input_tokens).toBe(first.usage!.input_tokens + first.usage!.output_tokens + 4);
    expect((await client.responses.retrieve(second.id)).id).toBe(second.id);
    await client.responses.delete(second.id);
    await expect(client.responses.retrieve(second.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const beta = new OpenAI({ apiKey: BETA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    await expect(beta.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('compact over plain HTTP, then carry on from the compacted item', async () => {
    let previous = await client.responses.create({ model: 'sim-chat', input: `First topic: ${'rivers '.repeat(60)}` });
    for (const t of ['Second topic: mountains', 'Third topic: deserts']) {
      previous = await client.responses.create({ model: 'sim-chat', input: t, previous_response_id: previous.id });
    }
    const res = await fetch(`${gw.url}/v1/responses/compact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-chat', previous_response_id: previous.id, instructions: 'Be brief.' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const compacted = (await res.json()) as {
      object: string;
      output: Array<{ type: string; encrypted_content: string }>;
      usage: { input_tokens: number; output_tokens: number };
    };
    expect(compacted.object).toBe('response.compaction');
    expect(compacted.output.map((o) => o.type)).toEqual(['compaction']);
    expect(compacted.usage.output_tokens).toBeLessThan(compacted.usage.input_tokens);

    const next = await client.responses.create({
      model: 'sim-chat',
      input: [...(compacted.output as unknown as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'Summarise our chat' }],
    });
    expect(next.status).toBe('completed');
    expect(next.output_text).toContain('Summarise our chat');
  });
});

const tools: OpenAI.Responses.FunctionTool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Weather',
    strict: false,
    parameters: weatherParams,
  },
];

/** type, role or name, text: enough to see that each item came back as what it was. */
function describeItem(item: OpenAI.Responses.ResponseItem): string[] {
  switch (item.type) {
    case 'message': {
      const first = item.content[0];
      return [item.type, item.role, first && 'text' in first ? first.text : ''];
    }
    case 'function_call':
      return [item.type, item.name, item.arguments];
    case 'function_call_output':
      return [item.type, item.call_id ?? '', typeof item.output === 'string' ? item.output : ''];
    default:
      return [item.type];
  }
}

describe('openai 6.x responses.inputItems and responses.cancel against the gateway', () => {
  let call: OpenAI.Responses.Response;
  let last: OpenAI.Responses.Response;
  beforeAll(async () => {
    call = await client.responses.create({
      model: 'sim-chat',
      tools,
      tool_choice: 'required',
      input: [
        { role: 'developer', content: 'Answer briefly.' },
        { role: 'user', content: 'Weather in Oslo?' },
      ],
    });
    const fc = call.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(fc.type).toBe('function_call');
    const answer = await client.responses.create({
      model: 'sim-chat',
      tools,
      previous_response_id: call.id,
      input: [{ type: 'function_call_output', call_id: fc.call_id, output: '{"temp_c":7}' }],
    });
    last = await client.responses.create({ model: 'sim-chat', previous_response_id: answer.id, input: 'Thank you' });
  });

  it('inputItems.list: the conversation so far, newest first, with the right types and texts', async () => {
    const page = await client.responses.inputItems.list(last.id);
    const fc = call.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(page.has_more).toBe(false);
    expect(page.data.map(describeItem)).toEqual([
      ['message', 'user', 'Thank you'],
      ['message', 'assistant', 'The tool get_weather returned: {"temp_c":7}'],
      ['function_call_output', fc.call_id, '{"temp_c":7}'],
      ['function_call', 'get_weather', fc.arguments],
      ['message', 'user', 'Weather in Oslo?'],
      ['message', 'developer', 'Answer briefly.'],
    ]);
    const asc = await client.responses.inputItems.list(last.id, { order: 'asc', include: ['message.input_image.image_url'] });
    expect(asc.data.map((i) => i.id)).toEqual(page.data.map((i) => i.id).reverse());
  });

  it('auto-pagination over limit 1 visits every item once, in order', async () => {
    const all = (await client.responses.inputItems.list(last.id, { order: 'asc' })).data.map((i) => i.id);
    const first = await client.responses.inputItems.list(last.id, { order: 'asc', limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.has_more).toBe(true);
    const visited: string[] = [];
    for await (const item of client.responses.inputItems.list(last.id, { order: 'asc', limit: 1 })) visited.push(item.id!);
    expect(all).toHaveLength(6);
    expect(visited).toEqual(all);
  });

  it('cancel of a finished response rejects with BadRequestError not_background', async () => {
    const err = await client.responses.cancel(call.id).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.code).toBe('not_background');
    expect(err.message).toContain('Only responses created with background=true can be cancelled.');
  });

  it("another account's response is NotFound for both", async () => {
    const beta = new OpenAI({ apiKey: BETA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    for (const attempt of [beta.responses.inputItems.list(call.id), beta.responses.cancel(call.id)]) {
      const err = await Promise.resolve(attempt).catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect(err.code).toBe('response_not_found');
    }
  });
});
