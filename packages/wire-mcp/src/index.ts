export { mcpFormat } from './mcp.router';
export { adminMcpRoutes, type AdminMcpDeps } from './mcp-admin.router';
export { mcpOAuthChallenge } from './mcp-oauth';
