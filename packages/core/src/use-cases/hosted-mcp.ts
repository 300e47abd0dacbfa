import type { Principal } from '../auth';
import { registeredServer, withoutRunDeclarations } from '../hosted-mcp';
import type { TextRequest, TextResult, TextStreamPart } from '../text';
import { HostedMcpLoop } from './hosted-mcp-loop';
import type { McpGateway } from './mcp-gateway';
import type { TextCallMeta } from './text-generation';

export interface HostedMcpDeps {
  mcp: Pick<McpGateway, 'servers' | 'toolsOf' | 'callTool'>;
  /** model rounds per request; default HOSTED_MCP_MAX_ROUNDS */
  maxRounds?: number;
}

/** One model round: the fully layered text call (guardrails, cache, routing), so every round is checked and recorded. */
export type ModelRound = (request: TextRequest, meta: TextCallMeta) => Promise<TextResult>;
export type StreamRound = (request: TextRequest, meta: TextCallMeta) => AsyncIterable<TextStreamPart>;

/** Decides whether a request needs the gateway's MCP loop: only when it declares a registered server. */
export class HostedMcp {
  constructor(private readonly deps: HostedMcpDeps) {}

  /** The loop for a request that names registered servers; undefined: the request goes as it is. */
  plan(principal: Principal, request: TextRequest, meta: TextCallMeta): HostedMcpLoop | undefined {
    const declared = request.hostedMcp?.servers ?? [];
    const registered = this.deps.mcp.servers();
    const run = declared.flatMap((d) => {
      const s = registeredServer(d, registered);
      return s ? [{ server: d, serverId: s.id }] : [];
    });
    if (!run.length) return undefined;
    const stripped = withoutRunDeclarations(
      request,
      run.map((r) => r.server),
    );
    const approvals = request.hostedMcp?.approvals ?? [];
    return new HostedMcpLoop(this.deps, principal, stripped, run, approvals, meta);
  }
}
