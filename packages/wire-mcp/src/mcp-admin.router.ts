import type { McpGateway } from '@gateway/core';
import { adminRouteOf } from '@gateway/http-kit';

export interface AdminMcpDeps {
  mcpGateway: McpGateway;
}

const route = adminRouteOf<AdminMcpDeps>();

/** The admin API's view of the MCP servers: each configured one with how it answers a listing now. */
export const adminMcpRoutes = [
  route({
    method: 'get',
    path: '/admin/mcp/servers',
    summary: 'MCP servers with their status',
    description:
      "Every configured MCP server, listed now (not from any key's cache): `status` `ok` with its number of tools, or `error` with what failed (never its credentials).",
    response: {
      description: '`{data: [{id, status, tools?, error?}]}`',
      content: {
        'application/json': {
          type: 'object',
          required: ['data'],
          properties: {
            data: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'status'],
                properties: {
                  id: { type: 'string' },
                  status: { enum: ['ok', 'error'] },
                  tools: { type: 'integer' },
                  error: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
    async handle({ deps, requestId, signal }, _req, res) {
      res.json({ data: await deps.mcpGateway.serverStatuses({ requestId, signal }) });
    },
  }),
];
