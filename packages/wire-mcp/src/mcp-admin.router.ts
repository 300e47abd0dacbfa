import type { McpGateway, McpServerAdministration, McpServerView } from '@gateway/core';
import { adminRouteOf, changedBy, jsonBody, jsonContent as json, pathParam, type AdminContext } from '@gateway/http-kit';
import type { Request } from 'express';
import { changeMcpServerBody, registerMcpServerBody } from './mcp-admin.request.schema';

export interface AdminMcpDeps {
  mcpGateway: McpGateway;
  mcpServers: McpServerAdministration;
}

const route = adminRouteOf<AdminMcpDeps>();

/** The registered servers, changed with the caller as the author of the audit record. */
const serversAs = (ctx: AdminContext<AdminMcpDeps>, req: Request) => ctx.deps.mcpServers.as(changedBy(ctx, req));

const server = {
  type: 'object',
  required: ['id', 'source', 'url', 'headers', 'pricePerCall'],
  properties: {
    id: { type: 'string' },
    source: { enum: ['file', 'admin'], description: '`file`: from the config file, read-only here.' },
    url: { type: 'string' },
    headers: { type: 'array', items: { type: 'string' }, description: 'The names of the headers sent to it; never their values.' },
    pricePerCall: { type: ['number', 'null'] },
  },
};
const withStatus = {
  ...server,
  required: [...server.required, 'status'],
  properties: {
    ...server.properties,
    status: { enum: ['ok', 'error'] },
    tools: { type: 'integer' },
    error: { type: 'string' },
  },
};
const id = pathParam('id', 'The server id (an admin-registered one).');

/** The admin API's MCP servers: the config file's (read-only) and the registered ones, each with how it answers now. */
export const adminMcpRoutes = [
  route({
    method: 'get',
    path: '/admin/mcp/servers',
    summary: 'MCP servers with their status',
    description:
      "Every MCP server, the config file's then the registered ones, listed now (not from any key's cache): `status` `ok` with its number of tools, or `error` with what failed. Header names only, never their values.",
    response: {
      description: '`{data: [...]}`',
      content: json({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: withStatus } } }),
    },
    async handle({ deps, requestId, signal }, _req, res) {
      const [servers, statuses] = await Promise.all([deps.mcpServers.list(), deps.mcpGateway.serverStatuses({ requestId, signal })]);
      const byId = new Map(statuses.map((s) => [s.id, s]));
      // a server registered a moment ago on another instance may not be loaded here yet: not listed until it is
      res.json({ data: servers.filter((s) => byId.has(s.id)).map((s: McpServerView) => ({ ...s, ...byId.get(s.id) })) });
    },
  }),
  route({
    method: 'post',
    path: '/admin/mcp/servers',
    summary: 'Register an MCP server',
    description:
      'Checked as a config file server is (id without `__`, no collision even by case, the webhook URL rules); unknown fields are refused (400 `unknown_field`). Applies here at once and within CONFIG_POLL_MS elsewhere. Audited.',
    body: registerMcpServerBody,
    response: { status: 201, description: 'The registered server (header names only).', content: json(server) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.status(201).json(await serversAs(ctx, req).register(ctx.body));
    },
  }),
  route({
    method: 'patch',
    path: '/admin/mcp/servers/{id}',
    summary: 'Change a registered MCP server',
    description: 'A config file server is refused (409 mcp_server_config_owned): change it in the file. Audited.',
    params: [id],
    body: changeMcpServerBody,
    response: { description: 'The server (header names only).', content: json(server) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.json(await serversAs(ctx, req).update(String(req.params.id), ctx.body));
    },
  }),
  route({
    method: 'delete',
    path: '/admin/mcp/servers/{id}',
    summary: 'Delete a registered MCP server',
    description: "Refused while a group's `mcp` list names it (400 invalid_config_change), and for a config file server (409). Audited.",
    params: [id],
    response: {
      description: 'Deleted.',
      content: json({ type: 'object', properties: { id: { type: 'string' }, deleted: { const: true } } }),
    },
    async handle(ctx, req, res) {
      await serversAs(ctx, req).remove(String(req.params.id));
      res.json({ id: req.params.id, deleted: true });
    },
  }),
];
