import request from 'supertest';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * Body fields naming a resource of the gateway's upstream account (Anthropic `container`, `mcp_servers`; Gemini
 * `cachedContent`) follow the provider entry's `accountResources` policy: refused by default with a 400 in the
 * caller's format naming the field (nothing reaches the upstream), dropped with a warning, or sent as written.
 */
let gw: TestGateway;
let claude: FakeUpstream;
let gemini: FakeUpstream;

beforeAll(async () => {
  claude = await startFakeUpstream('anthropic');
  gemini = await startFakeUpstream('gemini');
  const base = testConfigFile();
  const anthropic = (id: string, accountResources?: 'refuse' | 'drop' | 'allow') => ({
    id,
    type: 'anthropic' as const,
    baseUrl: claude.url,
    apiKey: claude.apiKey,
    ...(accountResources ? { accountResources } : {}),
  });
  const google = (id: string, accountResources?: 'refuse' | 'drop' | 'allow') => ({
    id,
    type: 'google' as const,
    baseUrl: gemini.url,
    apiKey: gemini.apiKey,
    ...(accountResources ? { accountResources } : {}),
  });
  const model = (id: string, provider: string, upstreamModel: string) => ({ id, kind: 'text' as const, provider, upstreamModel });
  gw = await startTestGateway({
    config: testConfigFile({
      providers: [
        ...base.providers,
        anthropic('claude'),
        anthropic('claude-drop', 'drop'),
        anthropic('claude-allow', 'allow'),
        google('gem'),
      ],
      models: [
        ...base.models,
        model('claude-default', 'claude', 'claude-sonnet-4-5'),
        model('claude-drop', 'claude-drop', 'claude-sonnet-4-5'),
        model('claude-allow', 'claude-allow', 'claude-sonnet-4-5'),
        model('gem-default', 'gem', 'gemini-2.5-pro'),
      ],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
  await claude.close();
  await gemini.close();
});
beforeEach(() => {
  claude.reset();
  gemini.reset();
});

const messages = (model: string, extra: object) =>
  request(gw.app)
    .post('/v1/messages')
    .set({ 'x-api-key': BETA_KEY, 'anthropic-version': '2023-06-01' })
    .send({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], ...extra });

const MCP = { mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'x' }] };

describe('upstream-account resources in a passthrough body', () => {
  it.each([
    ['container', { container: 'container_of_another_tenant' }],
    ['mcp_servers', MCP],
  ])('refuses %s by default with a 400 in the Anthropic format, sending nothing upstream', async (field, extra) => {
    const res = await messages('claude-default', extra);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining(field) } });
    expect(claude.requests).toHaveLength(0);
    // a stream is refused the same way, before any event
    const streamed = await messages('claude-default', { ...extra, stream: true });
    expect(streamed.status).toBe(400);
    expect(claude.requests).toHaveLength(0);
  });

  it('refuses Gemini cachedContent by default with a 400 in the Gemini format', async () => {
    const res = await request(gw.app)
      .post('/v1beta/models/gem-default:generateContent')
      .set('x-goog-api-key', BETA_KEY)
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], cachedContent: 'cachedContents/someone-elses' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('cachedContent') });
    expect(gemini.requests).toHaveLength(0);
  });

  it('drops the fields with a warning where the provider says drop', async () => {
    const res = await messages('claude-drop', { container: 'container_1', ...MCP });
    expect(res.status).toBe(200);
    expect(claude.requests).toHaveLength(1);
    expect(claude.requests[0]!.body).not.toHaveProperty('container');
    expect(claude.requests[0]!.body).not.toHaveProperty('mcp_servers');
    expect(res.headers['x-gateway-warnings']).toContain('container: names a resource of the upstream account: dropped');
    expect(res.headers['x-gateway-warnings']).toContain('mcp_servers');
  });

  it('sends them as written where the provider allows them', async () => {
    const res = await messages('claude-allow', { container: 'container_1', ...MCP });
    expect(res.status).toBe(200);
    expect(claude.requests[0]!.body).toMatchObject({ container: 'container_1', ...MCP });
  });

  it('a malformed field is still a schema error naming it', async () => {
    const res = await messages('claude-allow', { container: 3 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('container');
  });
});
