import type { Principal } from '../auth';
import { GatewayError } from '../errors';
import type { HostedMcpServer } from '../hosted-mcp';
import type { McpUpstreamPort } from '../ports/mcp-upstream.port';
import type { UsageRow } from '../ports/usage-log.port';
import { collectStream, type TextRequest, type TextResult, type TextStreamPart } from '../text';
import { HostedMcp } from './hosted-mcp';
import { McpGateway } from './mcp-gateway';
import type { TextCallMeta } from './text-generation';

const who: Principal = { accountId: 'acct', keyId: 'key1', group: 'default' };
const meta = (): TextCallMeta => ({ format: 'openai-responses', requestId: 'req1', signal: new AbortController().signal });

function setup(keyList?: string[], maxRounds?: number) {
  const rows: UsageRow[] = [];
  const calls: Array<{ name: string; args: unknown }> = [];
  const weather: McpUpstreamPort = {
    listTools: async () => [
      { name: 'get_weather', description: 'weather', inputSchema: { type: 'object' } },
      { name: 'echo', inputSchema: { type: 'object' } },
    ],
    callTool: async (name, args) => {
      calls.push({ name, args });
      return { content: [{ type: 'text', text: `sunny in ${String(args?.city)}` }] };
    },
  };
  const mcp = new McpGateway({
    upstream: (id) => (id === 'wx' ? weather : undefined),
    usage: { record: (r) => rows.push(r), flush: async () => {} },
  });
  mcp.configure({ servers: [{ id: 'wx', url: 'https://wx.example.com/mcp' }], groups: {} });
  const p = keyList ? { ...who, mcp: keyList } : who;
  return { hosted: new HostedMcp({ mcp, maxRounds }), rows, calls, p };
}

const declared = (over: Partial<HostedMcpServer> = {}): HostedMcpServer => ({
  label: 'wx',
  approval: { default: 'never' },
  at: [{ field: 'tools', index: 0 }],
  ...over,
});
const ask = (servers: HostedMcpServer[]): TextRequest => ({
  model: 'm',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] }],
  hostedTools: [{ format: 'openai-responses', type: 'mcp', param: 'tools[0]', definition: {} }],
  hostedMcp: { servers },
});
const usage = { inputTokens: 10, outputTokens: 2, totalTokens: 12 };

/** A model that calls the first offered tool named like `wanted` until it has a tool result, then answers with it. */
function model(wanted = 'get_weather') {
  const seen: TextRequest[] = [];
  const round = async (req: TextRequest): Promise<TextResult> => {
    seen.push(req);
    const last = req.messages[req.messages.length - 1]!;
    const tool = req.tools?.find((t) => t.name.endsWith(wanted));
    if (last.role === 'tool' || !tool) {
      const said =
        last.role === 'tool' ? last.content.map((r) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('')).join() : 'no tool';
      return { model: 'm', content: [{ type: 'text', text: `answer: ${said}` }], finishReason: 'stop', usage, warnings: [] };
    }
    const call = { type: 'tool-call' as const, id: `call${seen.length}`, name: tool.name, arguments: '{"city":"Paris"}' };
    return { model: 'm', content: [call], finishReason: 'tool-calls', usage, warnings: [] };
  };
  return { seen, round };
}

describe('HostedMcp loop', () => {
  it('lists, calls through McpGateway (a usage row), feeds the result back and sums the usage', async () => {
    const { hosted, rows, calls } = setup();
    const m = model();
    const result = await hosted.plan(who, ask([declared()]), meta())!.generate(m.round);
    expect(m.seen).toHaveLength(2);
    expect(m.seen[0]!.tools?.map((t) => t.name)).toEqual(['wx__get_weather', 'wx__echo']);
    expect(m.seen[0]!.hostedTools).toBeUndefined();
    expect(m.seen[0]!.hostedMcp).toBeUndefined();
    expect(calls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(result.content).toEqual([{ type: 'text', text: 'answer: sunny in Paris' }]);
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 4, totalTokens: 24 });
    expect(result.hostedMcp?.map((i) => i.type)).toEqual(['mcp-list-tools', 'mcp-call']);
    expect(result.hostedMcp?.[1]).toMatchObject({ server: 'wx', name: 'get_weather', output: 'sunny in Paris', error: null });
    expect(rows).toEqual([expect.objectContaining({ model: 'wx__get_weather', provider: 'wx', status: 'ok' })]);
  });

  it('each round goes past the response cache; only the first round answers the header callbacks', async () => {
    const { hosted } = setup();
    const m = model();
    const metas: TextCallMeta[] = [];
    const onWarnings = () => {};
    const loop = hosted.plan(who, ask([declared()]), { ...meta(), onWarnings })!;
    await loop.generate((r, roundMeta) => {
      metas.push(roundMeta);
      return m.round(r);
    });
    expect(metas.map((x) => x.cacheControl)).toEqual([
      { noCache: true, noStore: true },
      { noCache: true, noStore: true },
    ]);
    expect(metas.map((x) => x.onWarnings)).toEqual([onWarnings, undefined]);
  });

  it('a server that does not answer its listing offers no tools; its listing item says why', async () => {
    const rows: UsageRow[] = [];
    const down: McpUpstreamPort = {
      listTools: () => Promise.reject(new GatewayError('upstream_unavailable', 'connection refused')),
      callTool: () => Promise.reject(new GatewayError('upstream_unavailable', 'connection refused')),
    };
    const mcp = new McpGateway({ upstream: () => down, usage: { record: (r) => rows.push(r), flush: async () => {} } });
    mcp.configure({ servers: [{ id: 'wx' }], groups: {} });
    const m = model();
    const r = await new HostedMcp({ mcp }).plan(who, ask([declared()]), meta())!.generate(m.round);
    expect(r.hostedMcp).toEqual([
      expect.objectContaining({ type: 'mcp-list-tools', tools: [], error: expect.stringContaining('connection refused') }),
    ]);
    expect(m.seen[0]!.tools).toBeUndefined();
    expect(r.content).toEqual([{ type: 'text', text: 'answer: no tool' }]);
  });

  it('names a server by URL; an unknown server is no loop at all', async () => {
    const { hosted } = setup();
    expect(hosted.plan(who, ask([declared({ label: 'other', url: 'https://wx.example.com/mcp' })]), meta())).toBeDefined();
    expect(hosted.plan(who, ask([declared({ label: 'other', url: 'https://elsewhere.example.com' })]), meta())).toBeUndefined();
  });

  it('offers only what the key allows and the declaration narrows to; a forbidden call is an error result', async () => {
    const { hosted, calls } = setup(['wx__echo', 'wx__get_weather']);
    const narrowed = await hosted.plan(who, ask([declared({ allowedTools: ['echo'] })]), meta())!.generate(model().round);
    expect(narrowed.hostedMcp?.[0]).toMatchObject({ type: 'mcp-list-tools', tools: [expect.objectContaining({ name: 'echo' })] });
    const keyOnlyEcho = setup(['wx__echo']);
    const m = model();
    const r = await keyOnlyEcho.hosted.plan(keyOnlyEcho.p, ask([declared()]), meta())!.generate(m.round);
    expect(m.seen[0]!.tools?.map((t) => t.name)).toEqual(['wx__echo']);
    expect(r.content).toEqual([{ type: 'text', text: 'answer: no tool' }]);
    // a model calling the forbidden tool anyway reads an error result; the server is not called
    const stubborn = model();
    const forced = async (req: TextRequest) =>
      req.messages.at(-1)!.role === 'tool'
        ? stubborn.round(req)
        : ({
            ...(await stubborn.round(req)),
            content: [{ type: 'tool-call', id: 'c1', name: 'wx__get_weather', arguments: '{"city":"Paris"}' }],
          } as TextResult);
    const refused = await keyOnlyEcho.hosted.plan(keyOnlyEcho.p, ask([declared()]), meta())!.generate(forced);
    expect(refused.hostedMcp?.[1]).toMatchObject({ type: 'mcp-call', name: 'get_weather', error: 'Unknown tool: get_weather.' });
    expect(refused.content).toEqual([{ type: 'text', text: 'answer: Unknown tool: get_weather.' }]);
    expect(calls).toEqual([]);
  });

  it('asks for approval and ends; an approved call runs on the next request, a denied one is told to the model', async () => {
    const { hosted, calls } = setup();
    const first = await hosted.plan(who, ask([declared({ approval: { default: 'always' } })]), meta())!.generate(model().round);
    const request = first.hostedMcp?.find((i) => i.type === 'mcp-approval-request');
    expect(request).toMatchObject({ server: 'wx', name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(calls).toEqual([]);
    const answer = (approve: boolean) => ({
      ...ask([declared({ approval: { default: 'always' } })]),
      hostedMcp: {
        servers: [declared({ approval: { default: 'always' } })],
        approvals: [{ requestId: request!.id, approve, reason: 'no', server: 'wx', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
    });
    const approved = await hosted.plan(who, answer(true), meta())!.generate(model().round);
    expect(approved.content).toEqual([{ type: 'text', text: 'answer: sunny in Paris' }]);
    const denied = await hosted.plan(who, answer(false), meta())!.generate(model().round);
    expect(denied.content).toEqual([{ type: 'text', text: 'answer: The user denied this call: no' }]);
    expect(calls).toHaveLength(1);
  });

  it('stops after the rounds cap with a warning', async () => {
    const { hosted, calls } = setup(undefined, 2);
    const always = async (req: TextRequest): Promise<TextResult> => ({
      model: 'm',
      content: [{ type: 'tool-call', id: `c${req.messages.length}`, name: 'wx__echo', arguments: '{}' }],
      finishReason: 'tool-calls',
      usage,
      warnings: [],
    });
    const r = await hosted.plan(who, ask([declared()]), meta())!.generate(always);
    expect(calls).toHaveLength(1);
    expect(r.content).toEqual([]);
    expect(r.warnings).toEqual([{ type: 'other', message: 'hosted MCP tools: stopped after 2 model rounds' }]);
  });

  it('streams the steps between rounds, holds the tool calls back and ends with one finish', async () => {
    const { hosted } = setup();
    const m = model();
    async function* round(req: TextRequest): AsyncGenerator<TextStreamPart> {
      const r = await m.round(req);
      for (const p of r.content) {
        if (p.type === 'text') yield { type: 'text-delta', delta: p.text };
        if (p.type === 'tool-call') {
          yield { type: 'tool-call-start', index: 0, id: p.id, name: p.name };
          yield { type: 'tool-call-delta', index: 0, argumentsDelta: p.arguments };
        }
      }
      yield { type: 'finish', finishReason: r.finishReason, usage: r.usage };
    }
    const parts: TextStreamPart[] = [];
    for await (const p of hosted.plan(who, ask([declared()]), meta())!.stream(round)) parts.push(p);
    expect(parts.map((p) => (p.type === 'hosted-mcp' ? p.item.type : p.type))).toEqual([
      'mcp-list-tools',
      'mcp-call',
      'text-delta',
      'finish',
    ]);
    const whole = await collectStream(
      'm',
      (async function* () {
        yield* parts;
      })(),
    );
    expect(whole.usage.totalTokens).toBe(24);
    expect(whole.hostedMcp).toHaveLength(2);
  });
});
