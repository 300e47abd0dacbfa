/**
 * Hosted MCP tools with the official SDKs against a started zero-config gateway (sim-chat, the built-in `sim` MCP
 * server): openai's responses.create (plain, streamed, and an approval round trip) and @anthropic-ai/sdk's
 * beta.messages.create with both MCP connector betas. Loopback only.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { ALPHA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';

let gw: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;
beforeAll(async () => {
  gw = await startTestGateway();
  openai = new OpenAI({ apiKey: ALPHA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: ALPHA_KEY, baseURL: gw.url, maxRetries: 0 });
});
afterAll(async () => {
  await gw.stop();
});

const ask = 'What is the weather in Paris? Use get_weather.';
const sim = { type: 'mcp' as const, server_label: 'sim', server_url: 'https://sim.example/mcp' };

describe('openai responses.create with a hosted MCP tool', () => {
  it('answers mcp_list_tools, mcp_call and the message; output_text names the weather', async () => {
    const r = await openai.responses.create({ model: 'sim-chat', input: ask, tools: [{ ...sim, require_approval: 'never' }] });
    const list = r.output[0]!;
    const call = r.output[1]!;
    expect(list.type).toBe('mcp_list_tools');
    if (list.type === 'mcp_list_tools') expect(list.tools.map((t) => t.name)).toContain('get_weather');
    expect(call.type).toBe('mcp_call');
    if (call.type !== 'mcp_call') return;
    expect(call.name).toBe('get_weather');
    expect(call.output).toMatch(/°C/);
    expect(r.output_text).toContain(call.output!);
  });

  it('streams the MCP events; the final response carries the items', async () => {
    const stream = openai.responses.stream({ model: 'sim-chat', input: ask, tools: [{ ...sim, require_approval: 'never' }] });
    const seen: string[] = [];
    for await (const e of stream) seen.push(e.type);
    const final = await stream.finalResponse();
    expect(seen).toEqual(expect.arrayContaining(['response.mcp_list_tools.completed', 'response.mcp_call.completed']));
    expect(final.output.map((o) => o.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
  });

  it('asks for approval (the default), then runs the call once approved', async () => {
    const first = await openai.responses.create({ model: 'sim-chat', input: ask, tools: [sim] });
    const asked = first.output.find((o) => o.type === 'mcp_approval_request');
    expect(asked).toBeDefined();
    const next = await openai.responses.create({
      model: 'sim-chat',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: asked!.id!, approve: true }],
      tools: [sim],
    });
    expect(next.output.map((o) => o.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
  });
});

describe('@anthropic-ai/sdk beta.messages.create with mcp_servers', () => {
  it.each([
    ['mcp-client-2025-04-04' as const, { mcp_servers: [{ type: 'url' as const, url: 'https://sim.example/mcp', name: 'sim' }] }],
    [
      'mcp-client-2025-11-20' as const,
      {
        mcp_servers: [{ type: 'url' as const, url: 'https://sim.example/mcp', name: 'sim' }],
        tools: [{ type: 'mcp_toolset' as const, mcp_server_name: 'sim' }],
      },
    ],
  ])('%s: mcp_tool_use and mcp_tool_result blocks before the text', async (beta, mcp) => {
    const msg = await anthropic.beta.messages.create({
      model: 'sim-chat',
      max_tokens: 256,
      betas: [beta],
      messages: [{ role: 'user', content: ask }],
      ...mcp,
    });
    expect(msg.content.map((b) => b.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    const [use, result, text] = msg.content;
    if (use!.type !== 'mcp_tool_use' || result!.type !== 'mcp_tool_result' || text!.type !== 'text') return;
    expect(use.name).toBe('get_weather');
    expect(use.server_name).toBe('sim');
    expect(result.tool_use_id).toBe(use.id);
    expect(result.is_error).toBe(false);
    const output = Array.isArray(result.content) ? result.content.map((c) => c.text).join('') : result.content;
    expect(text.text).toContain(output);
  });

  it('streams the blocks; finalMessage carries them', async () => {
    const stream = anthropic.beta.messages.stream({
      model: 'sim-chat',
      max_tokens: 256,
      betas: ['mcp-client-2025-04-04'],
      messages: [{ role: 'user', content: ask }],
      mcp_servers: [{ type: 'url', url: 'https://sim.example/mcp', name: 'sim' }],
    });
    const final = await stream.finalMessage();
    expect(final.content.map((b) => b.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    const use = final.content[0]!;
    if (use.type === 'mcp_tool_use') expect(use.input).toEqual({ city: expect.any(String) });
  });
});
