/**
 * Hosted MCP tools for any model (docs/mcp.md "Hosted MCP tools for any model"): a Responses `{type:"mcp"}` tool or
 * an Anthropic `mcp_servers` entry naming a registered server is run by the gateway's own loop, whatever the upstream
 * (the zero-config simulator's sim-chat, a fake Anthropic upstream on loopback): the tools listed through the key's
 * allow-list, each call a usage row, the answer carrying the vendor's MCP items. One naming no registered server keeps
 * the hosted-tools and account-resources rules.
 */
import request from 'supertest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '@gateway/testkit';
import { gatewayOver, modelOf } from './reliability/support/gateway-over';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

const ECHO_ONLY_KEY = 'sk-mcp-echo-only-key-0003';
const CLIENT_SECRET = 'client-mcp-secret-never-forwarded';

let gw: TestGateway;
let anthropic: FakeUpstream;
let openai: FakeUpstream;
beforeAll(async () => {
  anthropic = await startFakeUpstream('anthropic');
  openai = await startFakeUpstream('openai-responses');
  gw = await gatewayOver(
    [
      { id: 'claude', dialect: 'anthropic', url: anthropic.url, apiKey: anthropic.apiKey },
      { id: 'gpt', dialect: 'openai-responses', url: openai.url, apiKey: openai.apiKey },
    ],
    { extraKeys: [{ key: ECHO_ONLY_KEY, account: 'gamma', group: 'vip', mcp: ['sim__echo'] }] },
  );
});
afterAll(async () => {
  await gw.stop();
  await Promise.all([anthropic.close(), openai.close()]);
});
beforeEach(() => {
  anthropic.reset();
  openai.reset();
});

const responses = (body: object, key = BETA_KEY) => request(gw.url).post('/v1/responses').set('Authorization', `Bearer ${key}`).send(body);
const messages = (body: object, beta = 'mcp-client-2025-04-04') =>
  request(gw.url)
    .post('/v1/messages')
    .set({ 'x-api-key': BETA_KEY, 'anthropic-version': '2023-06-01', 'anthropic-beta': beta })
    .send({ max_tokens: 256, ...body });

const simTool = (over: object = {}) => ({
  type: 'mcp',
  server_label: 'sim',
  server_url: 'https://example.com/not-used',
  require_approval: 'never',
  headers: { Authorization: `Bearer ${CLIENT_SECRET}` },
  authorization: CLIENT_SECRET,
  ...over,
});
const askWeather = 'What is the weather in Paris? Use get_weather.';

async function rowsOf(requestId: string) {
  await gw.usage.flush();
  return gw.db.knex('usage_log').where({ request_id: requestId }).orderBy('id');
}

describe('Responses {type:"mcp"} on the simulator', () => {
  it('lists the tools, calls get_weather, answers with its result; a usage row per tool call', async () => {
    const res = await responses({ model: 'sim-chat', input: askWeather, tools: [simTool()] });
    expect(res.status).toBe(200);
    const [list, call, message] = res.body.output;
    expect(list).toMatchObject({ type: 'mcp_list_tools', server_label: 'sim', id: expect.any(String) });
    expect(list.tools.map((t: { name: string }) => t.name)).toEqual(['echo', 'get_weather', 'generate_image']);
    expect(list.tools[1]).toMatchObject({ description: expect.any(String), input_schema: { type: 'object' } });
    expect(call).toMatchObject({ type: 'mcp_call', server_label: 'sim', name: 'get_weather', error: null, status: 'completed' });
    expect(JSON.parse(call.arguments)).toEqual({ city: expect.any(String) });
    expect(call.output).toMatch(/°C/);
    expect(message.type).toBe('message');
    expect(message.content[0].text).toContain(call.output);
    expect(res.body.usage.input_tokens).toBeGreaterThan(0);
    expect(JSON.stringify(res.body)).not.toContain(CLIENT_SECRET);

    const rows = await rowsOf(String(res.headers['x-request-id']));
    expect(rows.filter((r) => r.model === 'sim__get_weather')).toEqual([
      expect.objectContaining({ provider: 'sim', status: 'ok', format: 'openai-responses' }),
    ]);
    // one row per model round besides
    expect(rows.filter((r) => r.model === 'sim-chat')).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(CLIENT_SECRET);
    const usage = await request(gw.url).get('/v1/usage').set('Authorization', `Bearer ${BETA_KEY}`);
    expect(JSON.stringify(usage.body)).toContain('sim__get_weather');
  });

  it("narrows to the key's allow-list and the tool's allowed_tools", async () => {
    const narrowed = await responses({ model: 'sim-chat', input: askWeather, tools: [simTool()] }, ECHO_ONLY_KEY);
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.output[0].tools.map((t: { name: string }) => t.name)).toEqual(['echo']);
    expect(narrowed.body.output.map((o: { type: string }) => o.type)).toEqual(['mcp_list_tools', 'message']);
    const allowed = await responses({ model: 'sim-chat', input: askWeather, tools: [simTool({ allowed_tools: ['echo'] })] });
    expect(allowed.body.output[0].tools.map((t: { name: string }) => t.name)).toEqual(['echo']);
  });

  it('asks for approval by default; the approval continues with previous_response_id, a denial is told to the model', async () => {
    const first = await responses({ model: 'sim-chat', input: askWeather, tools: [simTool({ require_approval: undefined })] });
    expect(first.status).toBe(200);
    const asked = first.body.output.find((o: { type: string }) => o.type === 'mcp_approval_request');
    expect(asked).toMatchObject({ server_label: 'sim', name: 'get_weather', arguments: expect.any(String) });
    expect(first.body.output.some((o: { type: string }) => o.type === 'mcp_call')).toBe(false);

    const answer = (approve: boolean) =>
      responses({
        model: 'sim-chat',
        previous_response_id: first.body.id,
        input: [{ type: 'mcp_approval_response', approval_request_id: asked.id, approve, reason: 'not now' }],
        tools: [simTool({ require_approval: undefined })],
      });
    const approved = await answer(true);
    expect(approved.status).toBe(200);
    const call = approved.body.output.find((o: { type: string }) => o.type === 'mcp_call');
    expect(call).toMatchObject({ name: 'get_weather', arguments: asked.arguments, status: 'completed' });
    expect(approved.body.output.at(-1).content[0].text).toContain(call.output);
    const denied = await answer(false);
    expect(denied.body.output.some((o: { type: string }) => o.type === 'mcp_call')).toBe(false);
    expect(denied.body.output.at(-1).content[0].text).toContain('denied this call: not now');
  });

  it('on an OpenAI Responses upstream (which runs hosted MCP itself) a registered server is still run here', async () => {
    openai.setDefault({
      reply: (req) =>
        req.rawBody.includes('function_call_output')
          ? { text: 'done with the weather' }
          : { toolCalls: [{ name: 'sim__get_weather', arguments: { city: 'Oslo' } }] },
    });
    const res = await responses({ model: modelOf('gpt'), input: askWeather, tools: [simTool()] });
    expect(res.status).toBe(200);
    expect(res.body.output.map((o: { type: string }) => o.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    expect(res.body.output[1]).toMatchObject({ name: 'get_weather', output: expect.stringMatching(/^Oslo: /) });
    expect(openai.requests).toHaveLength(2);
    for (const sent of openai.requests) {
      expect(sent.rawBody).not.toContain(CLIENT_SECRET);
      expect(sent.body.tools.map((t: { type: string }) => t.type)).toEqual(['function', 'function', 'function']);
    }
  });

  it('a server_label the gateway has not registered keeps the hosted-tools rule (dropped, named in the warning)', async () => {
    const res = await responses({
      model: 'sim-chat',
      input: askWeather,
      tools: [{ type: 'mcp', server_label: 'elsewhere', server_url: 'https://mcp.example.com/sse', require_approval: 'never' }],
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-gateway-warnings']).toContain('mcp: hosted tool dropped');
    expect(res.body.output.map((o: { type: string }) => o.type)).toEqual(['message']);
  });
});

/** A fake Claude that calls sim__get_weather until it has read a tool result, then answers with it. */
function weatherClaude(req: RecordedRequest) {
  const last = req.body.messages.at(-1);
  const result = Array.isArray(last.content) ? last.content.find((b: { type: string }) => b.type === 'tool_result') : undefined;
  if (!result) return { toolCalls: [{ name: 'sim__get_weather', arguments: { city: 'Lisbon' } }] };
  const text = typeof result.content === 'string' ? result.content : result.content.map((b: { text: string }) => b.text).join('');
  return { text: `Claude says: ${text}` };
}

describe('Anthropic mcp_servers, on a fake Anthropic upstream and on the simulator', () => {
  const lisbon = { role: 'user', content: 'Weather in Lisbon? Use get_weather.' };

  it.each([
    [
      'mcp-client-2025-04-04',
      { mcp_servers: [{ type: 'url', url: 'https://x.example/mcp', name: 'sim', authorization_token: CLIENT_SECRET }] },
    ],
    [
      'mcp-client-2025-11-20',
      {
        mcp_servers: [{ type: 'url', url: 'https://x.example/mcp', name: 'sim', authorization_token: CLIENT_SECRET }],
        tools: [{ type: 'mcp_toolset', mcp_server_name: 'sim' }],
      },
    ],
  ])('%s: mcp_tool_use and mcp_tool_result blocks before the text; the upstream sees plain functions', async (beta, mcp) => {
    anthropic.setDefault({ reply: weatherClaude });
    const res = await messages({ model: modelOf('claude'), messages: [lisbon], ...mcp }, beta);
    expect(res.status).toBe(200);
    const [use, result, text] = res.body.content;
    expect(use).toEqual({
      type: 'mcp_tool_use',
      id: expect.any(String),
      name: 'get_weather',
      server_name: 'sim',
      input: { city: 'Lisbon' },
    });
    expect(result).toEqual({
      type: 'mcp_tool_result',
      tool_use_id: use.id,
      is_error: false,
      content: [{ type: 'text', text: expect.stringMatching(/^Lisbon: .*°C/) }],
    });
    expect(text).toEqual({ type: 'text', text: `Claude says: ${result.content[0].text}` });
    expect(res.body.stop_reason).toBe('end_turn');
    // usage is the sum over the two rounds (the fake counts 11 in, 7 out each)
    expect(res.body.usage).toMatchObject({ input_tokens: 22, output_tokens: 14 });
    expect(anthropic.requests).toHaveLength(2);
    const sent = anthropic.requests[0]!;
    expect(sent.body.tools.map((t: { name: string }) => t.name)).toEqual(['sim__echo', 'sim__get_weather', 'sim__generate_image']);
    expect(sent.body.mcp_servers).toBeUndefined();
    expect(sent.rawBody).not.toContain(CLIENT_SECRET);
    expect(JSON.stringify(sent.headers)).not.toContain(CLIENT_SECRET);
  });

  it('a toolset that turns tools off offers only the rest', async () => {
    anthropic.setDefault({ reply: weatherClaude });
    const res = await messages(
      {
        model: modelOf('claude'),
        messages: [lisbon],
        mcp_servers: [{ type: 'url', url: 'https://x.example/mcp', name: 'sim' }],
        tools: [
          { type: 'mcp_toolset', mcp_server_name: 'sim', default_config: { enabled: false }, configs: { get_weather: { enabled: true } } },
        ],
      },
      'mcp-client-2025-11-20',
    );
    expect(res.status).toBe(200);
    expect(anthropic.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toEqual(['sim__get_weather']);
  });

  it('runs on the simulator too', async () => {
    const res = await messages({
      model: 'sim-chat',
      messages: [{ role: 'user', content: askWeather }],
      mcp_servers: [{ type: 'url', url: 'builtin:simulator', name: 'anything' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.content.map((b: { type: string }) => b.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    expect(res.body.content[0].server_name).toBe('anything');
  });

  it('an mcp_servers entry the gateway has not registered keeps the account-resources rule (refused by default)', async () => {
    const res = await messages({
      model: 'sim-chat',
      messages: [lisbon],
      mcp_servers: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'elsewhere' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('mcp_servers');
  });
});

/** Raw SSE text → events. */
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

describe('streamed', () => {
  it("Responses: OpenAI's MCP events before the message's, and the completed response carries the items", async () => {
    const res = await responses({ model: 'sim-chat', input: askWeather, tools: [simTool()], stream: true }).buffer(true);
    expect(res.status).toBe(200);
    const evs = events(res.text);
    const types = evs.map((e) => e.data.type);
    const mcpTypes = types.filter((t) => t.includes('mcp'));
    expect(mcpTypes).toEqual([
      'response.mcp_list_tools.in_progress',
      'response.mcp_list_tools.completed',
      'response.mcp_call.in_progress',
      'response.mcp_call_arguments.delta',
      'response.mcp_call_arguments.done',
      'response.mcp_call.completed',
    ]);
    expect(types.indexOf('response.mcp_call.completed')).toBeLessThan(types.indexOf('response.output_text.delta'));
    const added = evs.filter((e) => e.data.type === 'response.output_item.added').map((e) => [e.data.output_index, e.data.item.type]);
    expect(added).toEqual([
      [0, 'mcp_list_tools'],
      [1, 'mcp_call'],
      [2, 'message'],
    ]);
    const seq = evs.map((e) => e.data.sequence_number);
    expect(seq).toEqual(seq.map((_, i) => i));
    const completed = evs.at(-1)!.data;
    expect(completed.type).toBe('response.completed');
    const [list, call, message] = completed.response.output;
    expect(list.type).toBe('mcp_list_tools');
    expect(call).toMatchObject({ type: 'mcp_call', name: 'get_weather', status: 'completed' });
    expect(message.content[0].text).toContain(call.output);
    // stored as streamed
    const stored = await request(gw.url).get(`/v1/responses/${completed.response.id}`).set('Authorization', `Bearer ${BETA_KEY}`);
    expect(stored.body.output.map((o: { type: string }) => o.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
  });

  it('Messages on a fake Anthropic upstream: mcp_tool_use (input as input_json_delta) and mcp_tool_result blocks, then the text', async () => {
    anthropic.setDefault({ reply: weatherClaude });
    const res = await messages({
      model: modelOf('claude'),
      stream: true,
      messages: [{ role: 'user', content: 'Weather in Lisbon? Use get_weather.' }],
      mcp_servers: [{ type: 'url', url: 'https://x.example/mcp', name: 'sim' }],
    }).buffer(true);
    expect(res.status).toBe(200);
    const evs = events(res.text);
    const starts = evs.filter((e) => e.event === 'content_block_start').map((e) => [e.data.index, e.data.content_block.type]);
    expect(starts).toEqual([
      [0, 'mcp_tool_use'],
      [1, 'mcp_tool_result'],
      [2, 'text'],
    ]);
    const json = evs
      .filter((e) => e.event === 'content_block_delta' && e.data.index === 0)
      .map((e) => e.data.delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ city: 'Lisbon' });
    const result = evs.find((e) => e.event === 'content_block_start' && e.data.index === 1)!.data.content_block;
    const text = evs
      .filter((e) => e.event === 'content_block_delta' && e.data.index === 2)
      .map((e) => e.data.delta.text)
      .join('');
    expect(text).toBe(`Claude says: ${result.content[0].text}`);
    expect(evs.filter((e) => e.event === 'message_start')).toHaveLength(1);
    const delta = evs.find((e) => e.event === 'message_delta')!.data;
    expect(delta.delta.stop_reason).toBe('end_turn');
    expect(delta.usage).toMatchObject({ input_tokens: 22, output_tokens: 14 });
    expect(evs.at(-1)!.event).toBe('message_stop');
  });
});

describe('each model round is a whole text call', () => {
  it("input guardrails read the tool results a later round sends (a pattern only the tool's answer has is blocked)", async () => {
    const GUARDED = 'sk-mcp-guarded-key-0004';
    const base = testConfigFile();
    const guarded = await startTestGateway({
      config: testConfigFile({
        guardrails: [{ id: 'no-temperatures', type: 'regex', patterns: ['°C'], on: 'input' }],
        keys: [...(base.keys ?? []), { key: GUARDED, account: 'delta', group: 'vip', guardrails: ['no-temperatures'] }],
      }),
    });
    try {
      const res = await request(guarded.url)
        .post('/v1/responses')
        .set('Authorization', `Bearer ${GUARDED}`)
        .send({ model: 'sim-chat', input: askWeather, tools: [simTool()] });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('guardrail_blocked');
      await guarded.usage.flush();
      const rows = await guarded.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] });
      // the first round ran and the tool was called; the second round was refused at its input
      expect(rows.map((r) => r.model).sort()).toEqual(expect.arrayContaining(['sim-chat', 'sim__get_weather']));
    } finally {
      await guarded.stop();
    }
  });
});
