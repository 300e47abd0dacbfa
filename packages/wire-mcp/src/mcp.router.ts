import type { Response } from 'express';
import { GatewayError, type McpGateway } from '@gateway/core';
import { jsonBody, routeOf, type WireFormat } from '@gateway/http-kit';
import { mcpErrorShape, RPC, rpcError } from './json-rpc';
import { dispatch, initializeResult, isModernMessage, readRequest } from './mcp-dispatch';
import { EndedSessions, newSessionId, sessionBelongsTo } from './mcp-session';
import { mcpOAuthRoutes, type McpOAuthDeps } from './mcp-oauth';

export interface McpRouterDeps extends McpOAuthDeps {
  mcpGateway: McpGateway;
}

const route = routeOf<McpRouterDeps>();
const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-api-key'] } as const;
const ended = new EndedSessions();

const rpcBody = {
  description: 'A JSON-RPC 2.0 request or notification of MCP (`initialize`, `tools/list`, `tools/call`, `ping`, `server/discover`).',
  content: {
    'application/json': { type: 'object', required: ['jsonrpc'], properties: { jsonrpc: { const: '2.0' }, method: { type: 'string' } } },
  },
};
const rpcAnswer = {
  description: 'The JSON-RPC answer (202 without a body for notifications). Failures of a request are JSON-RPC errors.',
  content: { 'application/json': { type: 'object', required: ['jsonrpc'] } },
};

function sessionProblem(res: Response, raw: string | undefined, keyId: string): { status: number; message: string } | undefined {
  if (!raw) return { status: 400, message: 'Bad Request: the Mcp-Session-Id header is required (send initialize first).' };
  if (!sessionBelongsTo(raw, keyId) || ended.has(raw)) return { status: 404, message: 'Session not found: initialize again.' };
  res.setHeader('mcp-session-id', raw);
  return undefined;
}

// express matches `/mcp/` to `/mcp` (no strict routing): one declaration serves both, never redirected
const paths = ['/mcp'] as const;

export const mcpRoutes = paths.flatMap((path) => [
  route({
    method: 'post',
    path,
    summary: 'MCP endpoint: the tools of every MCP server the key may use',
    description:
      'Streamable HTTP, answered in JSON. Older revisions: `initialize` issues an `Mcp-Session-Id` that later requests send back. 2026-07-28: stateless, `server/discover` names each server with its status. Tools are named `<server>__<tool>`.',
    format: 'mcp',
    auth,
    body: rpcBody,
    response: rpcAnswer,
    errors: 'mcp',
    parse: [jsonBody()],
    async handle({ deps, principal, requestId, signal }, req, res) {
      const message: unknown = req.body;
      if (Array.isArray(message)) return res.status(400).json(rpcError(null, RPC.invalidRequest, 'JSON-RPC batches are not supported.'));
      const read = readRequest(message);
      if ('refusal' in read) return res.status(400).json(read.refusal);
      if ('notification' in read) return res.status(202).end();
      const modern = isModernMessage(message, req.header('mcp-protocol-version'));
      if (!modern && read.method === 'initialize') {
        res.setHeader('mcp-session-id', newSessionId(principal.keyId));
        return res.json({ jsonrpc: '2.0', id: read.id, result: initializeResult(read.params) });
      }
      if (!modern && read.method !== 'ping') {
        const problem = sessionProblem(res, req.header('mcp-session-id'), principal.keyId);
        if (problem) return res.status(problem.status).json(rpcError(read.id, RPC.invalidRequest, problem.message));
      }
      res.json(await dispatch(read, { gateway: deps.mcpGateway, principal, requestId, signal, modern }));
    },
  }),
  route({
    method: 'delete',
    path,
    summary: 'Ends an MCP session (older revisions)',
    format: 'mcp',
    auth,
    response: { status: 204, description: 'The session ended: its id is refused from now on.', content: {} },
    errors: 'mcp',
    handle({ principal }, req, res) {
      const id = req.header('mcp-session-id');
      if (!id || !sessionBelongsTo(id, principal.keyId))
        throw new GatewayError('not_found', 'Session not found.', { code: 'session_not_found' });
      ended.end(id);
      res.status(204).end();
    },
  }),
  route({
    method: 'get',
    path,
    summary: 'No server-initiated stream: 405',
    format: 'mcp',
    auth,
    response: {
      status: 405,
      description: 'The endpoint sends no messages of its own; answers come on each POST.',
      content: rpcAnswer.content,
    },
    errors: 'mcp',
    handle(_ctx, _req, res) {
      res.setHeader('allow', 'POST, DELETE');
      res.status(405).json(rpcError(null, RPC.invalidRequest, 'Method Not Allowed: this endpoint answers POST.'));
    },
  }),
]);

/** The MCP endpoint: one route declaration per method, JSON-RPC errors. */
export const mcpFormat: WireFormat<McpRouterDeps> = {
  name: 'mcp',
  routes: [...mcpRoutes, ...mcpOAuthRoutes],
  errorShapes: [mcpErrorShape],
  pathClaims: [{ path: '/mcp', shape: 'mcp' }],
};
