import request from 'supertest';
import { openAiChatFormat } from '@gateway/wire-openai-chat';
import { expectOpenAiError } from './support/openai-error';
import { scriptedTextApp, scriptedTextPort } from './support/scripted-text-app';
import { ALPHA_KEY, BETA_KEY, startTextContractGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTextContractGateway();
});
afterAll(() => gw.stop());

const base = { model: 'sim-chat', messages: [{ role: 'user', content: 'Tell me about the harbor at dawn' }] };
const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
      required: ['city', 'days'],
    },
  },
};

function post(body: object, key = ALPHA_KEY) {
  return request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${key}`).send(body);
}

/** `data:` lines → parsed chunks; the literal `[DONE]` stays a string. */
function chunks(text: string): any[] {
  return text
    .split('\n\n')
    .filter((m) => m.trim())
    .map((m) => {
      expect(m.startsWith('data: ')).toBe(true);
      const d = m.slice(6);
      return d === '[DONE]' ? d : JSON.parse(d);
    });
}

describe('POST /v1/chat/completions: range rules (one accepted, one refused each)', () => {
  it.each([
    ['temperature 0', { temperature: 0 }],
    ['temperature 2', { temperature: 2 }],
    ['top_p 0', { top_p: 0 }],
    ['top_p 1', { top_p: 1 }],
    ['n 2', { n: 2 }],
    ['presence_penalty -2', { presence_penalty: -2 }],
    ['presence_penalty 2', { presence_penalty: 2 }],
    ['frequency_penalty -2', { frequency_penalty: -2 }],
    ['frequency_penalty 2', { frequency_penalty: 2 }],
    ['stop as a string', { stop: 'harbor' }],
    ['stop as an array of 4', { stop: ['a', 'b', 'c', 'd'] }],
    ['max_tokens 1', { max_tokens: 1 }],
    ['max_completion_tokens 1', { max_completion_tokens: 1 }],
    ['logit_bias within ±100', { logit_bias: { '50256': -100, '11': 100 } }],
    ['user', { user: 'user-1' }],
    ['function tools', { tools: [weather] }],
    ['tool_choice none', { tools: [weather], tool_choice: 'none' }],
    ['tool_choice auto', { tools: [weather], tool_choice: 'auto' }],
    ['tool_choice required', { tools: [weather], tool_choice: 'required' }],
    ['tool_choice naming a function', { tools: [weather], tool_choice: { type: 'function', function: { name: 'get_weather' } } }],
    ['response_format json_schema', { response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' } } } }],
    ['response_format json_object', { response_format: { type: 'json_object' } }],
    ['seed', { seed: 42 }],
    ['modalities text', { modalities: ['text'] }],
    ['audio null', { audio: null }],
    ['reasoning_effort none', { reasoning_effort: 'none' }],
    ['reasoning_effort minimal', { reasoning_effort: 'minimal' }],
    ['reasoning_effort low', { reasoning_effort: 'low' }],
    ['reasoning_effort medium', { reasoning_effort: 'medium' }],
    ['reasoning_effort high', { reasoning_effort: 'high' }],
    ['fields without canonical meaning', { logprobs: false, service_tier: 'auto', store: false, metadata: { a: 'b' } }],
  ])('accepts %s', async (_name, extra) => {
    const res = await post({ ...base, ...extra });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('chat.completion');
  });

  it.each([
    ['missing model', { model: undefined }, 'missing_field', 'model'],
    ['missing messages', { messages: undefined }, 'missing_field', 'messages'],
    ['empty messages', { messages: [] }, 'invalid_request_body', 'messages'],
    ['an unknown role', { messages: [{ role: 'robot', content: 'x' }] }, 'invalid_request_body', 'messages[0].role'],
    ['temperature above 2', { temperature: 2.1 }, 'invalid_request_body', 'temperature'],
    ['temperature below 0', { temperature: -0.1 }, 'invalid_request_body', 'temperature'],
    ['top_p above 1', { top_p: 1.01 }, 'invalid_request_body', 'top_p'],
    ['n 0', { n: 0 }, 'invalid_request_body', 'n'],
    ['n not an integer', { n: 1.5 }, 'invalid_request_body', 'n'],
    ['presence_penalty above 2', { presence_penalty: 2.5 }, 'invalid_request_body', 'presence_penalty'],
    ['frequency_penalty below -2', { frequency_penalty: -2.5 }, 'invalid_request_body', 'frequency_penalty'],
    ['stop with 5 entries', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'invalid_request_body', 'stop'],
    ['stop not a string', { stop: 7 }, 'invalid_request_body', 'stop'],
    ['max_tokens 0', { max_tokens: 0 }, 'invalid_request_body', 'max_tokens'],
    ['max_completion_tokens 0', { max_completion_tokens: 0 }, 'invalid_request_body', 'max_completion_tokens'],
    ['logit_bias above 100', { logit_bias: { '11': 101 } }, 'invalid_request_body', 'logit_bias[11]'],
    ['user not a string', { user: 5 }, 'invalid_request_body', 'user'],
    ['a non-function tool', { tools: [{ type: 'retrieval', function: { name: 'x' } }] }, 'invalid_request_body', 'tools[0].type'],
    [
      'a tool name with spaces',
      { tools: [{ type: 'function', function: { name: 'get weather' } }] },
      'invalid_request_body',
      'tools[0].function.name',
    ],
    ['tool_choice outside the list', { tools: [weather], tool_choice: 'sometimes' }, 'invalid_request_body', 'tool_choice'],
    [
      'tool_choice naming an unknown function',
      { tools: [weather], tool_choice: { type: 'function', function: { name: 'nope' } } },
      'unknown_tool',
      'tool_choice',
    ],
    ['tool_choice required without tools', { tool_choice: 'required' }, 'tools_required', 'tool_choice'],
    ['response_format of an unknown type', { response_format: { type: 'xml' } }, 'invalid_request_body', 'response_format.type'],
    [
      'response_format json_schema without json_schema',
      { response_format: { type: 'json_schema' } },
      'missing_field',
      'response_format.json_schema',
    ],
    ['seed not an integer', { seed: 1.5 }, 'invalid_request_body', 'seed'],
    ['modalities with audio (the model writes text only)', { modalities: ['text', 'audio'] }, 'unsupported_modality', 'modalities'],
    ['an unknown modality', { modalities: ['video'] }, 'invalid_request_body', 'modalities[0]'],
    ['audio without the audio modality', { audio: { voice: 'alloy', format: 'mp3' } }, 'audio_requires_modality', 'audio'],
    ['audio without a format', { modalities: ['text'], audio: { voice: 'alloy' } }, 'missing_field', 'audio.format'],
    ['reasoning_effort xhigh (not offered by sim-chat)', { reasoning_effort: 'xhigh' }, 'unsupported_reasoning_effort', 'reasoning_effort'],
    ['reasoning_effort max (not offered by sim-chat)', { reasoning_effort: 'max' }, 'unsupported_reasoning_effort', 'reasoning_effort'],
    [
      'an unknown content part',
      { messages: [{ role: 'user', content: [{ type: 'input_audio' }] }] },
      'unsupported_content_part',
      'messages[0].content[0].type',
    ],
    [
      'an image_url part without image_url',
      { messages: [{ role: 'user', content: [{ type: 'image_url' }] }] },
      'missing_field',
      'messages[0].content[0].image_url',
    ],
    [
      'a tool message without tool_call_id',
      {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', content: 'y' },
        ],
      },
      'missing_tool_call_id',
      'messages[1].tool_call_id',
    ],
    ['n above 1 when streaming', { n: 2, stream: true }, 'unsupported_n', 'n'],
  ])('refuses %s', async (_name, extra, code, param) => {
    expectOpenAiError(await post({ ...base, ...extra }), 400, code, param);
  });

  it('reasoning_effort on a model that cannot think is refused; the same request without it is accepted', async () => {
    expectOpenAiError(
      await post({ ...base, model: 'sim-chat-plain', reasoning_effort: 'low' }, BETA_KEY),
      400,
      'unsupported_reasoning_effort',
      'reasoning_effort',
    );
    expect((await post({ ...base, model: 'sim-chat-plain' }, BETA_KEY)).status).toBe(200);
  });

  it('error values are all strings, with type naming the class of failure', async () => {
    const res = await post({ ...base, temperature: 9 });
    expect(res.body.error.type).toBe('invalid_request_error');
    for (const v of Object.values(res.body.error)) expect(typeof v).toBe('string');
  });
});

describe('POST /v1/chat/completions: results', () => {
  it('the chat.completion object, with usage details', async () => {
    const res = await post(base);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'sim-chat',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: expect.stringContaining('harbor'), refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 7,
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        prompt_tokens_details: { cached_tokens: 0, text_tokens: 7, audio_tokens: 0, image_tokens: 0 },
        completion_tokens_details: { text_tokens: expect.any(Number), audio_tokens: 0, reasoning_tokens: 0 },
      },
      system_fingerprint: expect.any(String),
    });
    expect(res.body.usage.total_tokens).toBe(res.body.usage.prompt_tokens + res.body.usage.completion_tokens);
  });

  it('n 2 gives two choices; max_tokens cuts with finish_reason length; stop cuts at the sequence', async () => {
    expect((await post({ ...base, n: 2 })).body.choices.map((c: any) => c.index)).toEqual([0, 1]);
    const cut = (await post({ ...base, max_tokens: 2 })).body;
    expect(cut.choices[0].finish_reason).toBe('length');
    expect(cut.usage.completion_tokens).toBe(2);
    const full = (await post(base)).body.choices[0].message.content as string;
    const stopped = (await post({ ...base, stop: ['harbor'] })).body.choices[0].message.content as string;
    expect(stopped).toBe(full.slice(0, full.indexOf('harbor')));
  });

  it('reasoning_effort adds reasoning_content and reasoning tokens', async () => {
    const res = (await post({ ...base, reasoning_effort: 'high' })).body;
    expect(res.choices[0].message.reasoning_content).toEqual(expect.any(String));
    expect(res.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });
});

describe('POST /v1/chat/completions: streaming', () => {
  it('golden stream: role first, finish_reason last, the usage chunk with choices [] and then [DONE]', async () => {
    const res = await post({ ...base, stream: true, stream_options: { include_usage: true } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const all = chunks(res.text);
    expect(all[all.length - 1]).toBe('[DONE]');
    const objs = all.slice(0, -1);
    const id = objs[0].id;
    for (const c of objs) expect(c).toMatchObject({ id, object: 'chat.completion.chunk', model: 'sim-chat', created: expect.any(Number) });
    expect(objs[0].choices[0].delta.role).toBe('assistant');
    for (const c of objs.slice(1)) expect(c.choices[0]?.delta.role).toBeUndefined();

    const usageChunk = objs[objs.length - 1];
    const finishChunk = objs[objs.length - 2];
    const body = objs.slice(0, -2);
    expect(usageChunk.choices).toEqual([]);
    expect(finishChunk.choices[0]).toMatchObject({ finish_reason: 'stop', delta: {} });
    for (const c of body) {
      expect(c.choices[0].finish_reason).toBeNull();
      expect(c.usage).toBeNull();
    }
    expect(body.length).toBeGreaterThan(2);

    const streamed = body.map((c: any) => c.choices[0].delta.content ?? '').join('');
    const plain = (await post(base)).body;
    expect(streamed).toBe(plain.choices[0].message.content);
    expect(usageChunk.usage).toEqual(plain.usage);
  });

  it('without include_usage there is no usage chunk and no usage key', async () => {
    const all = chunks((await post({ ...base, stream: true })).text);
    expect(all[all.length - 1]).toBe('[DONE]');
    const objs = all.slice(0, -1);
    expect(objs[objs.length - 1].choices[0].finish_reason).toBe('stop');
    for (const c of objs) expect(c).not.toHaveProperty('usage');
  });

  it('an upstream failure before the first token is a plain HTTP error', async () => {
    expectOpenAiError(await post({ ...base, stream: true, messages: [{ role: 'user', content: '[sim:fail]' }] }), 502, 'simulated_failure');
  });

  it('an upstream failure mid-stream ends the stream with an error data message', async () => {
    const { port } = scriptedTextPort([{ type: 'text-delta', delta: 'partial ' }], 'fail');
    const app = scriptedTextApp(openAiChatFormat, port);
    const res = await request(app)
      .post('/v1/chat/completions')
      .set('Authorization', 'Bearer any')
      .send({ model: 'scripted', messages: [{ role: 'user', content: 'x' }], stream: true });
    const all = chunks(res.text);
    expect(all[1].choices[0].delta.content).toBe('partial ');
    expect(all[all.length - 1]).toEqual({
      error: { message: 'The upstream dropped the stream.', type: 'service_unavailable', param: '', code: 'upstream_dropped' },
    });
  });
});

describe('POST /v1/chat/completions: tool calls', () => {
  it('round trip: a schema-valid call, then the tool result answered in text by name', async () => {
    const messages: any[] = [{ role: 'user', content: 'What is the weather in Lisbon?' }];
    const first = (await post({ model: 'sim-chat', messages, tools: [weather], tool_choice: 'required' })).body;
    const choice = first.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      { id: expect.any(String), type: 'function', function: { name: 'get_weather', arguments: expect.any(String) } },
    ]);
    const args = JSON.parse(choice.message.tool_calls[0].function.arguments);
    expect(typeof args.city).toBe('string');
    expect(Number.isInteger(args.days) && args.days >= 1 && args.days <= 7).toBe(true);

    messages.push(choice.message, { role: 'tool', tool_call_id: choice.message.tool_calls[0].id, content: '{"temp_c":19}' });
    const second = (await post({ model: 'sim-chat', messages, tools: [weather] })).body;
    expect(second.choices[0].finish_reason).toBe('stop');
    // the tool's name is recovered from the assistant's call, as upstreams such as Gemini require it
    expect(second.choices[0].message.content).toBe('The tool get_weather returned: {"temp_c":19}');
  });

  it('a prompt naming the tool calls it under tool_choice auto; none suppresses it', async () => {
    const ask = { model: 'sim-chat', messages: [{ role: 'user', content: 'use get_weather for Rome' }], tools: [weather] };
    expect((await post(ask)).body.choices[0].finish_reason).toBe('tool_calls');
    expect((await post({ ...ask, tool_choice: 'none' })).body.choices[0].finish_reason).toBe('stop');
  });

  it('streamed tool call: id and name first, argument pieces after, finish_reason tool_calls', async () => {
    const all = chunks(
      (
        await post({
          model: 'sim-chat',
          messages: [{ role: 'user', content: 'weather?' }],
          tools: [weather],
          tool_choice: { type: 'function', function: { name: 'get_weather' } },
          stream: true,
        })
      ).text,
    );
    const objs = all.slice(0, -1);
    const calls = objs.flatMap((c: any) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({
      index: 0,
      id: expect.any(String),
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    const args = calls.map((c: any) => c.function.arguments).join('');
    expect(JSON.parse(args)).toEqual({ city: expect.any(String), days: expect.any(Number) });
    expect(objs[objs.length - 1].choices[0].finish_reason).toBe('tool_calls');
  });
});
