import request from 'supertest';
import { ChatAnthropic } from '@langchain/anthropic';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { usageRow } from '../support/provider-gateway';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * Anthropic to Anthropic: the upstream receives exactly the body the client sent (the model name aside) and the
 * client's anthropic-beta names under the provider's policy; cache usage comes back and lands in the usage row.
 */
let gw: TestGateway;
let claude: FakeUpstream;
beforeAll(async () => {
  claude = await startFakeUpstream('anthropic');
  const base = testConfigFile();
  const provider = (id: string, options?: Record<string, unknown>) => ({
    id,
    type: 'anthropic' as const,
    baseUrl: claude.url,
    apiKey: claude.apiKey,
    ...(options ? { options } : {}),
  });
  gw = await startTestGateway({
    config: testConfigFile({
      providers: [
        ...base.providers,
        provider('claude'),
        provider('claude-deny', { betas: 'operator-beta-1', clientBetas: { deny: ['files-api-2025-04-14'] } }),
        provider('claude-allow', { clientBetas: { allow: ['context-management-2025-06-27'] } }),
      ],
      models: [
        ...base.models,
        ...['claude', 'claude-deny', 'claude-allow'].map((p) => ({
          id: p === 'claude' ? 'claude-house' : p,
          kind: 'text' as const,
          provider: p,
          upstreamModel: 'claude-sonnet-4-5',
          reasoningEfforts: ['low', 'medium', 'high'],
        })),
      ],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
  await claude.close();
});
beforeEach(() => claude.reset());

const BETAS = 'context-management-2025-06-27, files-api-2025-04-14';

/** What Claude Code sends: every field the canonical model has no place for. */
function clientBody(model: string, extra: object = {}) {
  return {
    model,
    max_tokens: 32000,
    system: [
      { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'Project notes.', cache_control: { type: 'ephemeral' } },
    ],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'List the files.', cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Use the tool.', signature: 'sig-1' },
          { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' }, cache_control: { type: 'ephemeral' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts\nb.ts', cache_control: { type: 'ephemeral' } }],
      },
      { role: 'system', content: 'A reminder inside the conversation.' },
    ],
    tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
    thinking: { type: 'adaptive' },
    output_config: { effort: 'high' },
    context_management: { edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 3 } }] },
    metadata: { user_id: 'user_abc_account_def_session_123' },
    a_field_from_next_month: { nested: [1, 'two', { three: null }] },
    ...extra,
  };
}

function post(body: object, betas?: string) {
  const r = request(gw.url).post('/v1/messages').set('x-api-key', BETA_KEY).set('anthropic-version', '2023-06-01');
  if (betas) r.set('anthropic-beta', betas);
  return r.send(body);
}

const usage = { input: 1200, cached: 1000, cacheWrite: 150, output: 40 };

describe('Anthropic to Anthropic passthrough', () => {
  it('non-streaming: the upstream receives the client body unchanged but for the model, and the cache usage comes back', async () => {
    claude.enqueue({ reply: { text: 'Two files.', usage } });
    const sent = clientBody('claude-house');
    const res = await post(sent, BETAS);
    expect(res.status).toBe(200);
    expect(claude.requests).toHaveLength(1);
    expect(claude.requests[0]!.body).toEqual({ ...sent, model: 'claude-sonnet-4-5' });
    expect(claude.requests[0]!.headers['anthropic-beta']).toBe('context-management-2025-06-27,files-api-2025-04-14');
    expect(res.body.usage).toMatchObject({
      input_tokens: 50,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 150,
      output_tokens: 40,
    });
    expect(await usageRow(gw, res.headers['x-request-id']!)).toMatchObject({
      input_tokens: 1200,
      cached_tokens: 1000,
      cache_write_tokens: 150,
      output_tokens: 40,
    });
  });

  it('streaming: the same exact body (stream: true kept), and message_start announces the upstream input and cache counts', async () => {
    claude.enqueue({ reply: { text: 'Two files.', usage } });
    const sent = clientBody('claude-house', { stream: true });
    const res = await post(sent, BETAS);
    expect(res.status).toBe(200);
    expect(claude.requests[0]!.body).toEqual({ ...sent, model: 'claude-sonnet-4-5' });
    const start = res.text.split('\n\n').find((e) => e.startsWith('event: message_start'));
    const announced = JSON.parse(start!.split('\ndata: ')[1]!).message.usage;
    expect(announced).toMatchObject({ input_tokens: 50, cache_read_input_tokens: 1000, cache_creation_input_tokens: 150 });
    expect(res.text).toContain('event: message_stop');
    expect(await usageRow(gw, res.headers['x-request-id']!)).toMatchObject({
      input_tokens: 1200,
      cached_tokens: 1000,
      cache_write_tokens: 150,
      output_tokens: 40,
    });
  });

  it("LangChain's ChatAnthropic stream, which reads input tokens only from message_start, gets the upstream's counts", async () => {
    claude.enqueue({ reply: { text: 'Two files.', usage } });
    const model = new ChatAnthropic({ model: 'claude-house', apiKey: BETA_KEY, anthropicApiUrl: gw.url, maxRetries: 0 });
    let input = 0;
    let details: Record<string, unknown> = {};
    for await (const chunk of await model.stream('List the files.')) {
      input += chunk.usage_metadata?.input_tokens ?? 0;
      if (chunk.usage_metadata?.input_token_details) details = { ...chunk.usage_metadata.input_token_details };
    }
    // @langchain/anthropic 1.5 counts the whole input: 50 uncached + 1000 read from the cache + 150 written to it
    expect(input).toBe(50 + 1000 + 150);
    expect(details).toMatchObject({ cache_read: 1000, cache_creation: 150 });
  });

  it('a deny-list drops the named betas and keeps the operator betas; an allow-list forwards only its names', async () => {
    expect((await post(clientBody('claude-deny'), BETAS)).status).toBe(200);
    expect(claude.requests[0]!.headers['anthropic-beta']).toBe('operator-beta-1,context-management-2025-06-27');
    expect((await post(clientBody('claude-allow'), BETAS)).status).toBe(200);
    expect(claude.requests[1]!.headers['anthropic-beta']).toBe('context-management-2025-06-27');
    expect((await post(clientBody('claude-allow'), 'files-api-2025-04-14')).status).toBe(200);
    expect(claude.requests[2]!.headers['anthropic-beta']).toBeUndefined();
  });

  it('a Messages request routed to another dialect is translated, and the beta header goes nowhere', async () => {
    const res = await post({ model: 'sim-chat', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }, BETAS);
    expect(res.status).toBe(200);
    expect(claude.requests).toHaveLength(0);
  });

  it('a chat completions request to the same provider is translated (no native body), with no client betas', async () => {
    const res = await request(gw.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${BETA_KEY}`)
      .set('anthropic-beta', BETAS)
      .send({ model: 'claude-house', messages: [{ role: 'user', content: 'hi' }], max_tokens: 64 });
    expect(res.status).toBe(200);
    expect(claude.requests[0]!.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(claude.requests[0]!.headers['anthropic-beta']).toBeUndefined();
  });
});
