import { eventually } from '@gateway/testkit';
import request from 'supertest';
import type { TextStreamPart } from '@gateway/core';
import { anthropicMessagesFormat } from '@gateway/wire-anthropic-messages';
import { scriptedTextApp, scriptedTextPort, streamThenDisconnect } from './support/scripted-text-app';
import { ALPHA_KEY, BETA_KEY, startTextContractGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTextContractGateway();
});
afterAll(() => gw.stop());

const base = { model: 'sim-chat', max_tokens: 256, messages: [{ role: 'user', content: 'Tell me about rivers' }] };
const weatherTool = {
  name: 'get_weather',
  description: 'Current weather',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['city', 'days'],
  },
};

function post(body: object, headers: Record<string, string> = {}, path = '/v1/messages') {
  const r = request(gw.app).post(path);
  const all: Record<string, string> = { 'x-api-key': ALPHA_KEY, 'anthropic-version': '2023-06-01', ...headers };
  for (const [k, v] of Object.entries(all)) if (v !== '') r.set(k, v);
  return r.send(body);
}

/** Raw SSE text → events; every message must carry an `event:` line. */
function events(text: string): Array<{ event: string | undefined; data: any }> {
  return text
    .split('\n\n')
    .filter((m) => m.trim())
    .map((m) => {
      const event = /^event: (.+)$/m.exec(m)?.[1];
      const data = /^data: (.+)$/m.exec(m)?.[1];
      return { event, data: data === undefined ? undefined : JSON.parse(data) };
    });
}

function expectAnthropicError(res: request.Response, status: number, type: string, code?: string, param?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(res.body).toEqual({
    type: 'error',
    error: { type, message: expect.any(String), param: expect.any(String), code: expect.any(String) },
  });
  if (code) expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

describe('POST /v1/messages', () => {
  it('answers with the message object, without temperature/top_p/top_k (as the 1.x SDK sends it)', async () => {
    const res = await post(base);
    expect(res.status).toBe(200);
    expect(res.headers['request-id']).toBe(res.headers['x-request-id']);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      role: 'assistant',
      model: 'sim-chat',
      content: [{ type: 'text', text: expect.stringContaining('Tell me about rivers') }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      stop_details: null,
      container: null,
      usage: { input_tokens: 4, output_tokens: expect.any(Number), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it('accepts ?beta=true, anthropic-beta and a bearer key', async () => {
    const res = await post(
      base,
      { 'anthropic-beta': 'fast-mode-2026-02-01', 'x-api-key': '', authorization: `Bearer ${ALPHA_KEY}` },
      '/v1/messages?beta=true',
    );
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('message');
  });

  it('reports stop sequences and max_tokens', async () => {
    const stop = await post({ ...base, stop_sequences: ['answer'] });
    expect(stop.body).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'answer', content: [{ text: 'Simulated ' }] });
    const cut = await post({ ...base, max_tokens: 2 });
    expect(cut.body).toMatchObject({ stop_reason: 'max_tokens', stop_sequence: null, usage: { output_tokens: 2 } });
  });

  it('returns thinking blocks with a signature when thinking is enabled', async () => {
    const res = await post({ ...base, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(res.status).toBe(200);
    expect(res.body.content.map((b: any) => b.type)).toEqual(['thinking', 'text']);
    expect(res.body.content[0]).toEqual({ type: 'thinking', thinking: expect.any(String), signature: expect.any(String) });
    expect(res.body.usage.output_tokens_details.thinking_tokens).toBeGreaterThan(0);
  });

  it('writes a usage row in the messages format', async () => {
    const res = await post(base);
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
    expect(row).toMatchObject({ format: 'anthropic-messages', model: 'sim-chat', status: 'ok', input_tokens: 4 });
  });
});

describe('version header', () => {
  it('missing → 400 naming the header', async () => {
    expectAnthropicError(
      await post(base, { 'anthropic-version': '' }),
      400,
      'invalid_request_error',
      'missing_version_header',
      'anthropic-version',
    );
  });

  it.each(['2023-6-1', 'latest', '2023-02-30'])('malformed %j → 400', async (v) => {
    expectAnthropicError(
      await post(base, { 'anthropic-version': v }),
      400,
      'invalid_request_error',
      'invalid_version_header',
      'anthropic-version',
    );
  });

  it('the 1.x SDK date is accepted', async () => {
    expect((await post(base, { 'anthropic-version': '2026-10-21' })).status).toBe(200);
  });
});

describe('errors in the Anthropic shape', () => {
  it('missing key → 401 authentication_error', async () => {
    expectAnthropicError(await post(base, { 'x-api-key': '' }), 401, 'authentication_error', 'missing_api_key');
  });

  it('unknown x-api-key → 401', async () => {
    expectAnthropicError(await post(base, { 'x-api-key': 'sk-unknown-9999' }), 401, 'authentication_error', 'invalid_api_key');
  });

  it('unknown bearer key → 401', async () => {
    expectAnthropicError(await post(base, { 'x-api-key': '', authorization: 'Bearer sk-unknown-9999' }), 401, 'authentication_error');
  });

  it('a model outside the key group → 503, not an overload', async () => {
    expectAnthropicError(await post({ ...base, model: 'sim-chat-plain' }), 503, 'permission_error', 'model_not_in_group', 'model');
  });

  it('a video model → 400', async () => {
    expectAnthropicError(await post({ ...base, model: 'sim-video-2.0' }), 400, 'invalid_request_error', 'model_kind_mismatch', 'model');
  });

  it('invalid JSON → 400, never 500', async () => {
    const res = await request(gw.app)
      .post('/v1/messages')
      .set('x-api-key', ALPHA_KEY)
      .set('anthropic-version', '2023-06-01')
      .set('content-type', 'application/json')
      .send('{"model":');
    expectAnthropicError(res, 400, 'invalid_request_error', 'invalid_json');
  });

  it('an upstream failure before the first token is a plain HTTP error, streamed or not', async () => {
    const failing = { ...base, messages: [{ role: 'user', content: 'please [sim:fail]' }] };
    expectAnthropicError(await post(failing), 502, 'api_error', 'simulated_failure');
    expectAnthropicError(await post({ ...failing, stream: true }), 502, 'api_error', 'simulated_failure');
  });

  it('thinking on a model that cannot think → 400', async () => {
    const res = await post(
      { ...base, model: 'sim-chat-plain', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } },
      { 'x-api-key': BETA_KEY },
    );
    expectAnthropicError(res, 400, 'invalid_request_error', 'unsupported_reasoning_effort', 'thinking');
  });
});

describe('range rules: one accepted and one refused value per field', () => {
  const tools = [weatherTool];
  const cases: Array<[string, object, object, string]> = [
    ['max_tokens', { max_tokens: 1 }, { max_tokens: 0 }, 'max_tokens'],
    ['max_tokens (required)', {}, { max_tokens: undefined }, 'max_tokens'],
    ['temperature', { temperature: 1 }, { temperature: 1.01 }, 'temperature'],
    ['top_p', { top_p: 0 }, { top_p: 1.5 }, 'top_p'],
    ['top_k', { top_k: 0 }, { top_k: -1 }, 'top_k'],
    ['top_k (integer)', { top_k: 40 }, { top_k: 2.5 }, 'top_k'],
    ['stop_sequences', { stop_sequences: ['END'] }, { stop_sequences: 'END' }, 'stop_sequences'],
    ['speed', { speed: 'fast' }, { speed: 'turbo' }, 'speed'],
    ['service_tier', { service_tier: 'standard_only' }, { service_tier: 'priority' }, 'service_tier'],
    ['system', { system: [{ type: 'text', text: 'Be brief.' }] }, { system: 42 }, 'system'],
    ['metadata.user_id', { metadata: { user_id: 'u-1' } }, { metadata: { user_id: 7 } }, 'metadata.user_id'],
    ['inference_geo', { inference_geo: 'us' }, { inference_geo: 5 }, 'inference_geo'],
    ['cache_control', { cache_control: { type: 'ephemeral', ttl: '1h' } }, { cache_control: { type: 'permanent' } }, 'cache_control.type'],
    // container and mcp_servers name upstream-account resources: passthrough/account-resources.contract.test.ts
    ['context_management', { context_management: { edits: [] } }, { context_management: 'auto' }, 'context_management'],
    ['output_config.effort', { output_config: { effort: 'low' } }, { output_config: { effort: 'extreme' } }, 'output_config.effort'],
    [
      'output_format',
      { output_format: { type: 'json_schema', schema: { type: 'object' } } },
      { output_format: { type: 'json_schema' } },
      'output_format.schema',
    ],
    ['thinking.type', { max_tokens: 2048, thinking: { type: 'adaptive' } }, { thinking: { type: 'on' } }, 'thinking.type'],
    [
      'thinking.budget_tokens',
      { max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } },
      { max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1023 } },
      'thinking.budget_tokens',
    ],
    [
      'thinking.budget_tokens < max_tokens',
      { max_tokens: 1025, thinking: { type: 'enabled', budget_tokens: 1024 } },
      { max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 1024 } },
      'thinking.budget_tokens',
    ],
    ['tool_choice.type', { tools, tool_choice: { type: 'auto' } }, { tools, tool_choice: { type: 'required' } }, 'tool_choice.type'],
    [
      'tool_choice.name',
      { tools, tool_choice: { type: 'tool', name: 'get_weather' } },
      { tools, tool_choice: { type: 'tool' } },
      'tool_choice.name',
    ],
    ['tools[].input_schema', { tools }, { tools: [{ name: 'x', input_schema: { type: 'string' } }] }, 'tools[0].input_schema.type'],
    ['tools[].name', { tools }, { tools: [{ ...weatherTool, name: 'has space' }] }, 'tools[0].name'],
    ['messages', {}, { messages: [] }, 'messages'],
    ['messages[].role', {}, { messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].role'],
    ['content block', {}, { messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages[0].content[0].text'],
    [
      'image source',
      {},
      { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'AA' } }] }] },
      'messages[0].content[0].source.media_type',
    ],
  ];

  it.each(cases)('%s', async (_name, ok, bad, param) => {
    const accepted = await post({ ...base, ...ok });
    expect(accepted.status).toBe(200);
    const refused = await post({ ...base, ...bad });
    expectAnthropicError(refused, 400, 'invalid_request_error', undefined, param);
  });
});

describe('streaming', () => {
  it('golden stream: named events in order, text concatenating to the non-streamed text', async () => {
    const plain = await post(base);
    const res = await post({ ...base, stream: true }).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const evs = events(res.text);
    const names = evs.map((e) => e.event);
    const deltas = evs.filter((e) => e.event === 'content_block_delta').length;
    expect(deltas).toBeGreaterThan(1);
    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array(deltas).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of evs) expect(e.data.type).toBe(e.event);
    expect(evs[0]!.data.message).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      role: 'assistant',
      model: 'sim-chat',
      content: [],
      stop_reason: null,
    });
    const text = evs
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => e.data.delta.text)
      .join('');
    expect(text).toBe(plain.body.content[0].text);
    const delta = evs.find((e) => e.event === 'message_delta')!.data;
    expect(delta).toEqual({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: plain.body.usage });
  });

  it('streams thinking with a signature_delta before the text block', async () => {
    const body = { ...base, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } };
    const plain = await post(body);
    const evs = events((await post({ ...body, stream: true }).buffer(true)).text);
    const starts = evs.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block.type);
    expect(starts).toEqual(['thinking', 'text']);
    const of = (t: string, k: string) =>
      evs
        .filter((e) => e.data?.delta?.type === t)
        .map((e) => e.data.delta[k])
        .join('');
    expect(of('thinking_delta', 'thinking')).toBe(plain.body.content[0].thinking);
    expect(of('signature_delta', 'signature')).toBe(plain.body.content[0].signature);
    expect(of('text_delta', 'text')).toBe(plain.body.content[1].text);
  });
});

describe('tool use round trip', () => {
  const ask = { ...base, tools: [weatherTool], tool_choice: { type: 'any' }, messages: [{ role: 'user', content: 'Weather in Paris?' }] };

  it('emits a tool_use whose input validates, streamed the same way, then answers from the tool_result', async () => {
    const first = await post(ask);
    expect(first.body.stop_reason).toBe('tool_use');
    const call = first.body.content.find((b: any) => b.type === 'tool_use');
    expect(call).toEqual({
      type: 'tool_use',
      id: expect.any(String),
      name: 'get_weather',
      input: { city: expect.any(String), days: expect.any(Number) },
    });
    expect(Number.isInteger(call.input.days) && call.input.days >= 1 && call.input.days <= 7).toBe(true);

    const evs = events((await post({ ...ask, stream: true }).buffer(true)).text);
    const start = evs.find((e) => e.event === 'content_block_start')!.data.content_block;
    expect(start).toEqual({ type: 'tool_use', id: call.id, name: 'get_weather', input: {} });
    const json = evs
      .filter((e) => e.data?.delta?.type === 'input_json_delta')
      .map((e) => e.data.delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual(call.input);
    expect(evs.find((e) => e.event === 'message_delta')!.data.delta.stop_reason).toBe('tool_use');

    const followUp = await post({
      ...base,
      tools: [weatherTool],
      messages: [
        ...ask.messages,
        { role: 'assistant', content: first.body.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny, 21 degrees' }] },
      ],
    });
    expect(followUp.status).toBe(200);
    expect(followUp.body.stop_reason).toBe('end_turn');
    expect(followUp.body.content[0].text).toContain('get_weather');
    expect(followUp.body.content[0].text).toContain('sunny, 21 degrees');
  });
});

describe('mid-stream failure and disconnect (scripted upstream)', () => {
  const headers = { 'x-api-key': 'any', 'anthropic-version': '2023-06-01' };
  const body = { model: 'scripted', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'go' }] };
  const hello: TextStreamPart = { type: 'text-delta', delta: 'Hello' };

  it('an upstream error after the first token becomes `event: error` and ends the stream', async () => {
    const { port } = scriptedTextPort([hello], 'fail');
    const res = await request(scriptedTextApp(anthropicMessagesFormat, port)).post('/v1/messages').set(headers).send(body).buffer(true);
    expect(res.status).toBe(200);
    const evs = events(res.text);
    expect(evs.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'error']);
    expect(evs[4]!.data).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'The upstream dropped the stream.', param: '', code: 'upstream_dropped' },
    });
  });

  it('a client that goes away stops the upstream generation', async () => {
    const { port, seen } = scriptedTextPort([hello], 'hang');
    const first = await streamThenDisconnect(scriptedTextApp(anthropicMessagesFormat, port), '/v1/messages', headers, body);
    expect(first).toContain('event: message_start');
    await eventually(() => seen.finished);
    expect(seen.aborted).toBe(true);
  });
});
