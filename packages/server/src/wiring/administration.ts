import {
  AllAccountTasks,
  CatalogueAdministration,
  envReferencePolicy,
  KeyAdministration,
  McpServerAdministration,
  type Billing,
  type ContentStore,
} from '@gateway/core';
import { mountRoutes } from '@gateway/http-kit';
import type { RedisLink } from '@gateway/rate-limit-redis';
import { adminKeyGate, selfServiceFormat } from '@gateway/wire-admin';
import { adminRoutes, type AllAdminDeps } from '../admin/admin-routes';
import type { ConfigRuntime } from '../admin/config-runtime';
import type { GatewayConfig } from '../config';
import type { GatewayEnv } from '../gateway-env';
import { dashboardRouter } from '../dashboard-route';
import { publicBaseUrlFor } from '../public-links';
import type { Repositories } from '../repositories';
import { errorShapeNamed } from '../wire-formats';
import type { AreaWiring, WiringContext } from './context';
import { responseCachePurgeFor } from './response-cache';
import { ssoRouter } from './sso';

export interface Administration {
  admin: KeyAdministration;
  catalogue: CatalogueAdministration;
  mcpServers: McpServerAdministration;
}

/** The admin API's services; their changes are audited with the admin key as author unless a route says who. */
export function administrationFor(
  stores: Repositories,
  runtime: ConfigRuntime,
  config: GatewayConfig,
  billing: Billing,
  env: GatewayEnv,
): Administration {
  const audited = { audit: stores.audit, author: { actor: { type: 'admin_key' as const, id: 'admin' }, requestId: null, address: null } };
  return {
    admin: new KeyAdministration({
      ...audited,
      keys: stores.keys,
      quotas: stores.quotas,
      catalogue: config.catalogue,
      billing,
      maxKeysPerAccount: env.maxKeysPerAccount,
      // the live MCP section (a catalogue reload replaces the groups' lists in place)
      mcp: { servers: () => config.mcp.servers.map((s) => s.id), groupList: (g) => config.mcp.groups[g] },
      guardrail: (id) => config.guardrails.has(id),
    }),
    catalogue: new CatalogueAdministration({
      author: audited.author,
      store: stores.catalogue,
      changes: runtime,
      envPolicy: envReferencePolicy(
        config.written.providers.map((p) => p.apiKey),
        env.allowedEnv,
      ),
    }),
    mcpServers: new McpServerAdministration({
      ...audited,
      repo: stores.mcpServers,
      changes: runtime.mcpChanges,
      fileServers: () => config.mcp.servers.filter((s) => s.source === 'file'),
      urlRule: { allowedHosts: config.mcp.allowedHosts },
    }),
  };
}

export interface AdministrationDeps extends Pick<AllAdminDeps, 'webhooks' | 'mcpGateway'> {
  admin: Administration;
  runtime: ConfigRuntime;
  localAdminToken: string;
  redis?: RedisLink;
  /** where delivered videos are: a task's admin download reads them */
  videoContent: ContentStore;
}

/**
 * Administration as an area: the self-service routes behind an account admin's key, every /admin route behind the
 * admin key (or the CLI's local token), the dashboard and its sign-in, and the catalogue's poll of the database.
 */
export function wireAdministration(ctx: WiringContext, deps: AdministrationDeps): AreaWiring {
  const { env, config, stores, clock } = ctx;
  const adminGate = adminKeyGate(env.adminKey, deps.localAdminToken);
  return {
    routers: [
      mountRoutes(
        selfServiceFormat.routes,
        { admin: deps.admin.admin, clock, catalogue: config.catalogue, quotas: stores.quotas, gatewayLimits: config.limits },
        { authenticate: ctx.authenticate, errorShape: errorShapeNamed },
      ),
      mountRoutes(
        adminRoutes,
        {
          ...deps.admin,
          usage: stores.usageQuery,
          webhooks: deps.webhooks,
          tasks: new AllAccountTasks({ tasks: stores.tasks, content: deps.videoContent }),
          publicBaseUrl: publicBaseUrlFor(env),
          mcpGateway: deps.mcpGateway,
          responseCachePurge: responseCachePurgeFor(ctx.responseCache, stores.audit),
        },
        { admin: adminGate, errorShape: errorShapeNamed },
      ),
      dashboardRouter(),
      ssoRouter(ctx, { adminGate, redis: deps.redis }),
    ],
    start: () => deps.runtime.start(env.configPollMs ?? 2000),
    stop: async () => deps.runtime.stop(),
  };
}
