import type { GatewayError } from '@gateway/core';
import type { ErrorShape } from '@gateway/http-kit';

/** JSON-RPC 2.0 error codes the endpoint answers with. */
export const RPC = Object.freeze({
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** the gateway refused the caller (key, role, rate limit, budget) */
  refused: -32001,
  /** the upstream MCP servers failed */
  upstream: -32002,
});

export type RpcId = string | number | null;

export const rpcResult = (id: RpcId, result: unknown) => ({ jsonrpc: '2.0', id, result });

export const rpcError = (id: RpcId, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

/** The JSON-RPC code of a failure: the caller's mistake, a refusal, or the upstream's failure. */
export function rpcCodeOf(err: GatewayError): number {
  if (err.code === 'unknown_tool' || err.code === 'invalid_params') return RPC.invalidParams;
  if (err.code === 'method_not_found') return RPC.methodNotFound;
  if (err.code === 'invalid_json') return RPC.parseError;
  if (err.reason === 'invalid_request' || err.reason === 'payload_too_large') return RPC.invalidRequest;
  if (err.reason.startsWith('upstream_')) return RPC.upstream;
  if (err.reason === 'internal') return RPC.internalError;
  return RPC.refused;
}

/** A failure before any message was read (key, rate limit, body): a JSON-RPC error with the request's HTTP status. */
export const mcpErrorShape: ErrorShape = {
  name: 'mcp',
  schemaName: 'JsonRpcError',
  schema: {
    type: 'object',
    required: ['jsonrpc', 'id', 'error'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'number', 'null'] },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer' }, message: { type: 'string' }, data: { type: 'object' } },
      },
    },
  },
  render: (err) => ({ status: err.status, body: rpcError(null, rpcCodeOf(err), err.message, { reason: err.reason, code: err.code }) }),
};
