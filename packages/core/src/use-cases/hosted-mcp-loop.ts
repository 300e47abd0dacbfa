import { newId, type Principal } from '../auth';
import { invalid, isGatewayError } from '../errors';
import {
  HOSTED_MCP_MAX_ROUNDS,
  mcpResultText,
  needsApproval,
  type HostedMcpItem,
  type HostedMcpServer,
  type McpApprovalAnswer,
} from '../hosted-mcp';
import type { McpTool } from '../mcp/mcp';
import { qualifiedToolName, splitToolName } from '../mcp/mcp-names';
import type { AssistantContent, TextRequest, TextResult, TextStreamPart, ToolCallPart, ToolResultPart, Usage } from '../text';
import { collectStream, emptyUsage } from '../text';
import { distinctWarnings, type Warning } from '../warnings';
import type { HostedMcpDeps, ModelRound, StreamRound } from './hosted-mcp';
import type { TextCallMeta } from './text-generation';

/** A function offered to the model: which declared server and which of its tools it calls. */
interface Offered {
  server: HostedMcpServer;
  serverId: string;
  tool: string;
  /** a tool of a run server that was not offered (allow-lists, allowed_tools): calling it is an error result */
  refused?: true;
}

/** What one round's answer means for the loop. */
interface RoundOutcome {
  done: boolean;
  items: HostedMcpItem[];
  /** the round's content as the client gets it: the gateway's own calls left out */
  content: AssistantContent[];
}

/**
 * The gateway's MCP loop for one request: list the servers' tools (the caller's allow-lists, narrowed by the
 * declaration's allowed_tools), offer them as functions, run each call the model makes through McpGateway (usage
 * row, budget), feed the results back, and ask again, until the model answers without them or the rounds run out.
 * Client credentials in a declaration are never read. Usage is the sum over the rounds.
 */
export class HostedMcpLoop {
  private readonly offered = new Map<string, Offered>();
  private readonly items: HostedMcpItem[] = [];
  private request: TextRequest;
  private usage: Usage = emptyUsage();
  private warnings: Warning[] = [];
  private rounds = 0;

  constructor(
    private readonly deps: HostedMcpDeps,
    private readonly principal: Principal,
    request: TextRequest,
    private readonly run: ReadonlyArray<{ server: HostedMcpServer; serverId: string }>,
    private readonly approvals: readonly McpApprovalAnswer[],
    private readonly meta: TextCallMeta,
  ) {
    this.request = request;
  }

  async generate(round: ModelRound): Promise<TextResult> {
    await this.begin();
    for (;;) {
      const result = await round(this.request, this.roundMeta());
      const outcome = await this.after(result);
      if (outcome.done) return this.final(result, outcome.content);
    }
  }

  /**
   * Streams every round's text as it comes; the gateway's own tool calls and each round's finish are held back, its
   * MCP steps come as `hosted-mcp` parts between rounds, and one finish ends the whole answer.
   */
  async *stream(round: StreamRound): AsyncGenerator<TextStreamPart> {
    for (const item of await this.begin()) yield { type: 'hosted-mcp', item };
    for (;;) {
      const seen: TextStreamPart[] = [];
      for await (const part of this.visible(round(this.request, this.roundMeta()), seen)) yield part;
      const result = await collectStream(this.request.model, replayed(seen));
      const outcome = await this.after(result);
      for (const item of outcome.items) yield { type: 'hosted-mcp', item };
      if (outcome.done) {
        const final = this.final(result, outcome.content);
        yield { type: 'finish', finishReason: final.finishReason, usage: final.usage, warnings: final.warnings };
        return;
      }
    }
  }

  /** A round's parts as the client sees them; every part is kept in `seen` for the loop. */
  private async *visible(parts: AsyncIterable<TextStreamPart>, seen: TextStreamPart[]): AsyncGenerator<TextStreamPart> {
    const ours = new Set<number>();
    for await (const part of parts) {
      seen.push(part);
      if (part.type === 'finish') continue;
      if (part.type === 'input-usage' && this.rounds > 1) continue;
      if (part.type === 'tool-call-start' && this.target(part.name)) ours.add(part.index);
      if ((part.type === 'tool-call-start' || part.type === 'tool-call-delta') && ours.has(part.index)) continue;
      yield part;
    }
  }

  /** The first round's meta is the caller's; later rounds answer no header callbacks (the headers may be gone). */
  private roundMeta(): TextCallMeta {
    // a round that may call tools is never served from, nor kept in, the response cache, nor forwarded: the loop reads its parts
    const { forward: _f, ...outer } = this.meta;
    const meta = { ...outer, cacheControl: { noCache: true, noStore: true } };
    this.rounds += 1;
    if (this.rounds === 1) return meta;
    const { onWarnings: _w, onCache: _c, ...later } = meta;
    return later;
  }

  /** Lists the declared servers' tools (offered as functions) and answers the client's approvals; the items made. */
  private async begin(): Promise<HostedMcpItem[]> {
    const items: HostedMcpItem[] = [];
    const functions = [];
    for (const { server, serverId } of this.run) {
      const listed = await this.listed(serverId);
      const tools = (listed.tools ?? []).filter(
        (t) => (!server.allowedTools || server.allowedTools.includes(t.name)) && !server.excludedTools?.includes(t.name),
      );
      const error = listed.error ? { error: listed.error } : {};
      items.push({ type: 'mcp-list-tools', id: newId('mcpl_', 12), server: server.label, tools, ...error });
      for (const t of tools) {
        const name = qualifiedToolName(serverId, t.name);
        this.offered.set(name, { server, serverId, tool: t.name });
        functions.push({ name, description: t.description, parameters: t.inputSchema });
      }
    }
    if (functions.length) this.request = { ...this.request, tools: [...(this.request.tools ?? []), ...functions] };
    items.push(...(await this.answerApprovals()));
    this.items.push(...items);
    return items;
  }

  /** A server's tools for the caller; one that does not answer offers none, and its listing says why. */
  private async listed(serverId: string): Promise<{ tools?: McpTool[]; error?: string }> {
    try {
      return { tools: await this.deps.mcp.toolsOf(this.principal, serverId, this.meta) };
    } catch (e) {
      if (!isGatewayError(e) || e.code === 'client_closed') throw e;
      return { error: e.message };
    }
  }

  /** The client's approvals of earlier calls: approved ones run, denied ones tell the model so; then the model goes on. */
  private async answerApprovals(): Promise<HostedMcpItem[]> {
    const calls: ToolCallPart[] = [];
    const results: ToolResultPart[] = [];
    const items: HostedMcpItem[] = [];
    for (const a of this.approvals) {
      const name = [...this.offered.entries()].find(([, o]) => o.server.label === a.server && o.tool === a.name)?.[0];
      if (!name) continue;
      const call: ToolCallPart = { type: 'tool-call', id: a.requestId, name, arguments: a.arguments };
      calls.push(call);
      if (a.approve) {
        const ran = await this.callOne(call);
        items.push(ran.item);
        results.push(ran.result);
      } else {
        const text = `The user denied this call${a.reason ? `: ${a.reason}` : '.'}`;
        results.push({ type: 'tool-result', toolCallId: call.id, name, content: [{ type: 'text', text }], isError: true });
      }
    }
    if (calls.length) this.append(calls, results);
    return items;
  }

  /** The gateway's own tool a call names: one offered, or one of a run server that was not (refused), else the client's. */
  private target(name: string): Offered | undefined {
    const offered = this.offered.get(name);
    if (offered) return offered;
    const split = splitToolName(name);
    const run = split && this.run.find((r) => r.serverId === split.server);
    return run && split ? { ...run, tool: split.tool, refused: true } : undefined;
  }

  /** What a round's answer asks of the loop: run its MCP calls (or ask approval for them) and go on, or end. */
  private async after(result: TextResult): Promise<RoundOutcome> {
    this.usage = addUsage(this.usage, result.usage);
    this.warnings.push(...result.warnings);
    const calls = result.content.filter((p): p is ToolCallPart => p.type === 'tool-call' && this.target(p.name) !== undefined);
    const content = result.content.filter((p) => !calls.includes(p as ToolCallPart));
    if (!calls.length) return { done: true, items: [], content };
    if (this.rounds >= (this.deps.maxRounds ?? HOSTED_MCP_MAX_ROUNDS)) {
      this.warnings.push({ type: 'other', message: `hosted MCP tools: stopped after ${this.rounds} model rounds` });
      return { done: true, items: [], content };
    }
    const waiting = calls.filter((c) => {
      const o = this.target(c.name)!;
      return !o.refused && needsApproval(o.server.approval, o.tool);
    });
    const items: HostedMcpItem[] = waiting.map((c) => {
      const o = this.target(c.name)!;
      return { type: 'mcp-approval-request', id: newId('mcpr_', 12), server: o.server.label, name: o.tool, arguments: c.arguments };
    });
    const results: ToolResultPart[] = [];
    for (const c of calls.filter((c) => !waiting.includes(c))) {
      const ran = await this.callOne(c);
      items.unshift(ran.item);
      results.push(ran.result);
    }
    this.items.push(...items);
    // the client's own calls, or an approval it owes, end the answer; otherwise the model reads the results
    const done = waiting.length > 0 || content.some((p) => p.type === 'tool-call');
    if (!done) this.append(result.content, results);
    return { done, items, content };
  }

  /** One MCP call through McpGateway: its item and the tool result the model reads (a refusal is a result too). */
  private async callOne(call: ToolCallPart): Promise<{ item: HostedMcpItem; result: ToolResultPart }> {
    const o = this.target(call.name)!;
    let output = '';
    let error: string | null = null;
    try {
      if (o.refused) throw invalid('unknown_tool', `Unknown tool: ${o.tool}.`);
      const args = parseArguments(call.arguments);
      const r = await this.deps.mcp.callTool(this.principal, call.name, args, this.meta);
      output = mcpResultText(r);
      if (r.isError) error = output || 'the tool failed';
    } catch (e) {
      if (!isGatewayError(e) || e.code === 'client_closed') throw e;
      error = e.message;
    }
    const item: HostedMcpItem = {
      type: 'mcp-call',
      id: newId('mcp_', 12),
      server: o.server.label,
      name: o.tool,
      arguments: call.arguments,
      output,
      error,
    };
    const text = error ?? output;
    return {
      item,
      result: { type: 'tool-result', toolCallId: call.id, name: call.name, content: [{ type: 'text', text }], isError: error !== null },
    };
  }

  private append(calls: AssistantContent[], results: ToolResultPart[]): void {
    this.request = {
      ...this.request,
      messages: [...this.request.messages, { role: 'assistant', content: calls }, { role: 'tool', content: results }],
    };
  }

  private final(last: TextResult, content: AssistantContent[]): TextResult {
    const clientCalls = content.some((p) => p.type === 'tool-call');
    const finishReason = last.finishReason === 'tool-calls' && !clientCalls ? 'stop' : last.finishReason;
    return { ...last, content, finishReason, usage: this.usage, warnings: distinctWarnings(this.warnings), hostedMcp: this.items };
  }
}

/** A model's arguments text as the tool's arguments; anything but a JSON object is refused as the tool's error. */
function parseArguments(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text || '{}');
  } catch {
    value = undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalid('invalid_tool_arguments', 'The arguments are not a JSON object.');
  return value as Record<string, unknown>;
}

function addUsage(a: Usage, b: Usage): Usage {
  const sum = (x?: number, y?: number) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  const optional = {
    cachedInputTokens: sum(a.cachedInputTokens, b.cachedInputTokens),
    cacheCreationInputTokens: sum(a.cacheCreationInputTokens, b.cacheCreationInputTokens),
    reasoningTokens: sum(a.reasoningTokens, b.reasoningTokens),
  };
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

async function* replayed(parts: TextStreamPart[]): AsyncGenerator<TextStreamPart> {
  yield* parts;
}
