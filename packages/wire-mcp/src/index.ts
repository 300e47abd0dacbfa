export { mcpFormat } from './mcp.router';
