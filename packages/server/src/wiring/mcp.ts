import { BUILTIN_SIMULATOR_URL, GatewayError, McpGateway, type McpUpstreamPort } from '@gateway/core';
import { McpHttpClient } from '@gateway/provider-kit';
import { SimulatorMcpServer } from '@gateway/provider-simulator';
import { publicBaseUrlFor } from '../public-links';
import type { AreaWiring, WiringContext } from './context';

/** The MCP endpoint's use case over the configured servers: Streamable HTTP clients, and the simulator in-process. */
export function wireMcp(ctx: WiringContext) {
  const { config, providers } = ctx;
  const simulatorImages = () => {
    const sim = config.file.providers.find((p) => p.type === 'simulator');
    const port = sim && providers.image(sim.id);
    if (!port) throw new GatewayError('upstream_unavailable', 'No simulator provider draws images.', { code: 'mcp_server_unreachable' });
    return port;
  };
  // a server's client lives while its URL and headers do: a reload that changed them (or registered it) builds anew
  const ports = new Map<string, { fingerprint: string; port: McpUpstreamPort }>();
  const upstream = (id: string): McpUpstreamPort | undefined => {
    const server = config.mcp.servers.find((s) => s.id === id);
    if (!server) return undefined;
    const fingerprint = JSON.stringify([server.url, server.headers]);
    let entry = ports.get(id);
    if (entry?.fingerprint !== fingerprint) {
      const port =
        server.url === BUILTIN_SIMULATOR_URL
          ? new SimulatorMcpServer(simulatorImages)
          : new McpHttpClient(server, { allowedHosts: config.mcp.allowedHosts });
      // the keys' cached listings of the server as it was go with it
      if (entry) gateway.configure(config.mcp);
      entry = { fingerprint, port };
      ports.set(id, entry);
    }
    return entry.port;
  };
  const gateway = new McpGateway({ upstream, usage: ctx.usage, billing: ctx.billing });
  // the live object: a catalogue reload replaces its servers and groups' lists in place (config-runtime.ts)
  gateway.configure(config.mcp);
  // the OAuth option's discovery (wire-mcp's mcp-oauth.ts): read live, so a reload keeps what the file says
  const mcpOAuth = { authorizationServers: () => config.mcp.oauth?.authorizationServers, baseUrl: publicBaseUrlFor(ctx.env) };
  return { services: { mcpGateway: gateway, mcpOAuth } } satisfies AreaWiring;
}
