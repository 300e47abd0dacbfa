/**
 * Hosted tools (core/hosted-tools.ts) in every format against the zero-config simulator, which runs none: with the
 * default policy (`drop`) the request succeeds, the tool never reaches the upstream, and x-gateway-warnings names it,
 * streaming or not. Codex CLI's default request shape (namespace and custom tools, web_search, reasoning, include)
 * is answered likewise.
 */
import request from 'supertest';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.stop());

const post = (path: string, body: object, headers: Record<string, string> = {}) =>
  request(gw.app).post(path).set('Authorization', `Bearer ${ALPHA_KEY}`).set(headers).send(body);

const weather = { name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };

describe.each([false, true])('hosted tools dropped with a warning (stream: %s)', (stream) => {
  it('Anthropic server tools', async () => {
    const res = await post(
      '/v1/messages',
      {
        model: 'sim-chat',
        max_tokens: 128,
        stream,
        messages: [{ role: 'user', content: 'What is new today?' }],
        tools: [
          { type: 'web_search_20250305', name: 'web_search', max_uses: 2 },
          { type: 'web_fetch_20250910', name: 'web_fetch' },
          weather,
        ],
      },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(res.status).toBe(200);
    expect(res.headers['x-gateway-warnings']).toContain('web_search_20250305: hosted tool dropped');
    expect(res.headers['x-gateway-warnings']).toContain('web_fetch_20250910: hosted tool dropped');
  });

  it('Gemini googleSearch, urlContext and codeExecution', async () => {
    const verb = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    const res = await post(`/v1beta/models/sim-chat:${verb}`, {
      contents: [{ role: 'user', parts: [{ text: 'What is new today?' }] }],
      tools: [{ googleSearch: {} }, { urlContext: {} }, { codeExecution: {} }],
    });
    expect(res.status).toBe(200);
    for (const t of ['googleSearch', 'urlContext', 'codeExecution'])
      expect(res.headers['x-gateway-warnings']).toContain(`${t}: hosted tool dropped`);
  });

  it("Codex CLI's default request", async () => {
    const res = await post('/v1/responses', {
      model: 'gpt-5-codex',
      instructions: 'You are Codex, a coding agent.',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files here.' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'shell',
          description: 'Runs a shell command',
          strict: false,
          parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] },
        },
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Edit files',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' },
        },
        {
          type: 'namespace',
          name: 'mcp',
          description: 'MCP tools',
          tools: [{ type: 'function', name: 'fetch', parameters: { type: 'object', properties: {} } }],
        },
        { type: 'web_search' },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      reasoning: { effort: 'medium', summary: 'auto' },
      store: false,
      stream,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'thread-1',
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-gateway-warnings']).toContain('web_search: hosted tool dropped');
  });
});

it('a provider with hostedTools "refuse" answers 400 in the caller\'s format naming the tool', async () => {
  const strict = await startTestGateway({
    config: {
      providers: [{ id: 'sim', type: 'simulator', hostedTools: 'refuse' }],
      models: [{ id: 'sim-chat', kind: 'text', provider: 'sim' }],
      groups: [{ name: 'default', models: ['*'] }],
      keys: [{ key: ALPHA_KEY, account: 'alpha', group: 'default' }],
    },
  });
  try {
    const res = await request(strict.app)
      .post('/v1/messages')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .set('anthropic-version', '2023-06-01')
      .send({
        model: 'sim-chat',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(res.body.error.message).toContain('web_search_20250305');
    const gemini = await request(strict.app)
      .post('/v1beta/models/sim-chat:generateContent')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ googleSearch: {} }] });
    expect(gemini.status).toBe(400);
    expect(gemini.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(gemini.body.error.message).toContain('googleSearch');
  } finally {
    await strict.stop();
  }
});
