import type { Request, RequestHandler } from 'express';
import { GatewayError } from '@gateway/core';
import { jsonContent as json, routeOf } from '@gateway/http-kit';

/**
 * The OAuth 2.1 option of POST /mcp (off unless configured): RFC 9728 protected-resource metadata naming this
 * gateway's own MCP endpoint and the configured authorization servers, and a `WWW-Authenticate: Bearer
 * resource_metadata=…` challenge on a refused credential there, so an MCP client can discover where to get a token.
 * Tokens are not verified here: the endpoint accepts the gateway's keys (docs/mcp.md, "OAuth").
 */
export interface McpOAuthDiscovery {
  /** the configured authorization servers (issuer URLs); undefined: the option is off */
  authorizationServers(): readonly string[] | undefined;
  /** this gateway's public origin, as the request reached it */
  baseUrl(req: Request): string;
}

export interface McpOAuthDeps {
  mcpOAuth: McpOAuthDiscovery;
}

const METADATA = '/.well-known/oauth-protected-resource';
const ENDPOINT = /^\/mcp\/?$/;
const route = routeOf<McpOAuthDeps>();

const metadata = {
  type: 'object',
  required: ['resource', 'authorization_servers'],
  properties: {
    resource: { type: 'string', description: "This gateway's MCP endpoint: PUBLIC_BASE_URL + `/mcp`." },
    authorization_servers: { type: 'array', items: { type: 'string' } },
    bearer_methods_supported: { type: 'array', items: { const: 'header' } },
    resource_name: { type: 'string' },
  },
};

/** The metadata at the path formed from the endpoint's (what the challenge names) and at the origin's. */
export const mcpOAuthRoutes = [`${METADATA}/mcp`, METADATA].map((path) =>
  route({
    method: 'get',
    path,
    summary: 'OAuth protected-resource metadata of the MCP endpoint (RFC 9728)',
    description: '404 unless `mcpOAuth` is configured. Names this gateway’s own MCP endpoint, never an upstream server.',
    format: 'mcp',
    auth: { kind: 'none', why: 'Discovery metadata: public by RFC 9728.' },
    response: { description: 'The metadata.', content: json(metadata) },
    errors: 'openai',
    handle({ deps }, req, res) {
      const servers = deps.mcpOAuth.authorizationServers();
      if (!servers) throw new GatewayError('not_found', 'Not found.', { code: 'not_found' });
      res.json({
        resource: `${deps.mcpOAuth.baseUrl(req)}/mcp`,
        authorization_servers: servers,
        bearer_methods_supported: ['header'],
        resource_name: 'Gateway MCP endpoint',
      });
    },
  }),
);

/** Before the routes: a request to the endpoint is told, if refused, where the metadata is (only with the option on). */
export function mcpOAuthChallenge(discovery: McpOAuthDiscovery): RequestHandler {
  return (req, res, next) => {
    if (ENDPOINT.test(req.path) && discovery.authorizationServers())
      res.locals.authChallenge = `Bearer resource_metadata="${discovery.baseUrl(req)}${METADATA}/mcp"`;
    next();
  };
}
