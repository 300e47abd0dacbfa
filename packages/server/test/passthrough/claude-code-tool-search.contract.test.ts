import request from 'supertest';
import { startProviderGateway, UPSTREAMS, type ProviderGateway } from '../support/provider-gateway';
import { BETA_KEY } from '../support/test-gateway';

/**
 * Claude Code (2.1.247 and later, with ANTHROPIC_BASE_URL set too) offers MCP tools through its ToolSearch tool: the
 * tools go with `defer_loading: true`, the model calls ToolSearch, and Claude Code answers with `tool_reference`
 * blocks naming the tools to load before the model calls one (issue 39: its MCP tools through the gateway's /mcp).
 * The turn after the search is this one, as Claude Code 2.1.332 sent it.
 */
const afterToolSearch = {
  max_tokens: 32000,
  stream: true,
  tools: [
    {
      name: 'ToolSearch',
      description: 'Fetches deferred tools.',
      input_schema: { type: 'object', properties: { query: { type: 'string' } } },
    },
    {
      name: 'DeferredToolPlaceholder',
      description: 'Reserved placeholder that keeps deferred tool loading active; never call this tool.',
      input_schema: { type: 'object', properties: {} },
      defer_loading: true,
    },
    {
      name: 'mcp__gw__sim__echo',
      description: 'Returns its input text.',
      input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      defer_loading: true,
    },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'please call the echo tool' }] },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_search', name: 'ToolSearch', input: { query: 'select:mcp__gw__sim__echo' } }],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_search', content: [{ type: 'tool_reference', tool_name: 'mcp__gw__sim__echo' }] },
        { type: 'text', text: 'Tool loaded.', cache_control: { type: 'ephemeral' } },
      ],
    },
  ],
};

const anthropic = UPSTREAMS.find((u) => u.name === 'anthropic')!;
const openai = UPSTREAMS.find((u) => u.name === 'openai')!;
let pg: ProviderGateway;
beforeAll(async () => {
  pg = await startProviderGateway([anthropic, openai]);
});
afterAll(() => pg.stop());

const post = (model: string) =>
  request(pg.gw.url)
    .post('/v1/messages')
    .set('x-api-key', BETA_KEY)
    .set('anthropic-version', '2023-06-01')
    .set('anthropic-beta', 'advanced-tool-use-2025-11-20')
    .send({ ...afterToolSearch, model });

describe("Claude Code's tool search turn", () => {
  it('reaches an Anthropic upstream as sent: tool_reference blocks and defer_loading kept', async () => {
    pg.fakes.anthropic!.enqueue({ reply: { toolCalls: [{ name: 'mcp__gw__sim__echo', arguments: { text: 'hi' } }] } });
    const res = await post(anthropic.model);
    expect(res.status).toBe(200);
    expect(pg.fakes.anthropic!.requests[0]!.body).toEqual({ ...afterToolSearch, model: anthropic.upstreamModel });
    expect(res.text).toContain('"name":"mcp__gw__sim__echo"');
  });

  it('reaches another dialect with each tool_reference as a text naming the loaded tool (every tool is offered there)', async () => {
    pg.fakes.openai!.enqueue({ reply: { text: 'ok' } });
    const res = await post(openai.model);
    expect(res.status).toBe(200);
    const sent = pg.fakes.openai!.requests[0]!.body as {
      messages: Array<Record<string, unknown>>;
      tools: Array<{ function: { name: string } }>;
    };
    expect(sent.messages).toContainEqual({ role: 'tool', tool_call_id: 'toolu_search', content: 'Tool mcp__gw__sim__echo loaded.' });
    expect(sent.tools.map((t) => t.function.name)).toContain('mcp__gw__sim__echo');
  });
});
