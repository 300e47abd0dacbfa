import { GatewayError, McpGateway, type McpUpstreamPort } from '@gateway/core';
import { McpHttpClient } from '@gateway/provider-kit';
import { SimulatorMcpServer } from '@gateway/provider-simulator';
import { BUILTIN_SIMULATOR_URL, type McpConfig } from '../config-mcp';
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
  const portsOf = (mcp: McpConfig) =>
    new Map<string, McpUpstreamPort>(
      mcp.servers.map((s) => [
        s.id,
        s.url === BUILTIN_SIMULATOR_URL
          ? new SimulatorMcpServer(simulatorImages)
          : new McpHttpClient(s, { allowedHosts: mcp.allowedHosts }),
      ]),
    );
  const ports = portsOf(config.mcp);
  const gateway = new McpGateway({ upstream: (id) => ports.get(id), usage: ctx.usage, billing: ctx.billing });
  // the live object: a catalogue reload replaces its groups' lists in place (config-runtime.ts)
  gateway.configure(config.mcp);
  return { services: { mcpGateway: gateway } } satisfies AreaWiring;
}
