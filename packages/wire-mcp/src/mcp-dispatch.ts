import { GatewayError, isGatewayError, type McpGateway, type Principal } from '@gateway/core';
import { RPC, rpcCodeOf, rpcError, rpcResult, type RpcId } from './json-rpc';

/** The 2026-07-28 revision: stateless, `server/discover`, the revision in each request's `_meta`. */
export const MODERN_REVISION = '2026-07-28';
/** The older revisions, newest first: `initialize` answers the client's own when it is one of them. */
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const PROTOCOL_META = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO = { name: 'gateway', title: 'Gateway MCP endpoint', version: '1.0.0' };
const INSTRUCTIONS = 'Tools of the MCP servers this key may use, named <server>__<tool>.';

export interface RpcRequest {
  id: RpcId;
  method: string;
  params: Record<string, unknown>;
}

export interface DispatchContext {
  gateway: McpGateway;
  principal: Principal;
  requestId: string;
  signal: AbortSignal;
  modern: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A message's revision claim: its `_meta` envelope (2026-07-28), else the header. */
export function isModernMessage(message: unknown, header: string | undefined): boolean {
  const meta = isObject(message) && isObject(message.params) && isObject(message.params._meta) ? message.params._meta : undefined;
  const claim = meta?.[PROTOCOL_META];
  return (typeof claim === 'string' ? claim : header) === MODERN_REVISION;
}

/** The request a message is, or the JSON-RPC error that refuses it. */
export function readRequest(message: unknown): RpcRequest | { refusal: object } | { notification: true } {
  if (!isObject(message) || message.jsonrpc !== '2.0')
    return { refusal: rpcError(null, RPC.invalidRequest, 'Not a JSON-RPC 2.0 message.') };
  const id = message.id;
  if (typeof message.method !== 'string') {
    // a client's answer to a request of ours: we send none, so there is nothing to do
    if ('result' in message || 'error' in message) return { notification: true };
    return { refusal: rpcError(null, RPC.invalidRequest, 'A request needs a "method".') };
  }
  if (id === undefined) return { notification: true };
  if (typeof id !== 'string' && typeof id !== 'number')
    return { refusal: rpcError(null, RPC.invalidRequest, '"id" must be a string or a number.') };
  if (message.params !== undefined && !isObject(message.params))
    return { refusal: rpcError(id, RPC.invalidParams, '"params" must be an object.') };
  return { id, method: message.method, params: (message.params as Record<string, unknown> | undefined) ?? {} };
}

/** The answer to one request (never throws: a failure is a JSON-RPC error). */
export async function dispatch(req: RpcRequest, ctx: DispatchContext): Promise<object> {
  try {
    const result = (await answer(req, ctx)) as Record<string, unknown>;
    // 2026-07-28 results say they are complete (no input is required of the client)
    return rpcResult(req.id, ctx.modern ? { ...result, resultType: 'complete' } : result);
  } catch (e) {
    if (!isGatewayError(e)) return rpcError(req.id, RPC.internalError, 'The gateway failed to answer.');
    return rpcError(req.id, rpcCodeOf(e), e.message, { reason: e.reason, code: e.code });
  }
}

/** What `initialize` answers (older revisions): the client's revision when supported, else the newest older one. */
export function initializeResult(params: Record<string, unknown>): { protocolVersion: string } & Record<string, unknown> {
  const asked = params.protocolVersion;
  const protocolVersion = typeof asked === 'string' && LEGACY_REVISIONS.includes(asked) ? asked : LEGACY_REVISIONS[0]!;
  return { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS };
}

async function answer(req: RpcRequest, ctx: DispatchContext): Promise<unknown> {
  const { gateway, principal } = ctx;
  const call = { requestId: ctx.requestId, signal: ctx.signal };
  // a modern result says how long it may be reused, and that it is this caller's own
  const cacheable = ctx.modern ? { ttlMs: 0, cacheScope: 'private' } : {};
  switch (req.method) {
    case 'ping':
      return {};
    case 'server/discover':
      return {
        supportedVersions: [MODERN_REVISION, ...LEGACY_REVISIONS],
        capabilities: { tools: { listChanged: false } },
        instructions: INSTRUCTIONS,
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO, 'gateway/servers': await gateway.discover(principal, call) },
      };
    case 'tools/list': {
      const listing = await gateway.listTools(principal, call);
      return { tools: listing.tools, ...cacheable, _meta: { 'gateway/servers': listing.servers } };
    }
    case 'tools/call': {
      const { name, arguments: args } = req.params;
      if (typeof name !== 'string')
        throw new GatewayError('invalid_request', '"params.name" must be a tool name.', { code: 'invalid_params' });
      if (args !== undefined && !isObject(args))
        throw new GatewayError('invalid_request', '"params.arguments" must be an object.', { code: 'invalid_params' });
      return await gateway.callTool(principal, name, args, { ...call, format: 'mcp' });
    }
    default:
      throw new GatewayError('not_found', `Method not found: ${req.method}.`, { code: 'method_not_found' });
  }
}
