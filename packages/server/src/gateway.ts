import { dirname } from 'node:path';
import type { Express } from 'express';
import type { Server } from 'node:http';
import { Billing, DelegatedKeys } from '@gateway/core';
import { budgetHeaders, databaseGate, StreamShutdown, streamAdmission } from '@gateway/http-kit';
import type { Database } from '@gateway/store-postgres';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createHttpApp } from './app';
import { loadConfig, type GatewayConfig } from './config';
import { createLogger, type Logger } from '@gateway/observability';
import { mcpOAuthChallenge } from '@gateway/wire-mcp';
import { ConfigRuntime } from './admin/config-runtime';
import { newLocalAdminToken } from '@gateway/cli';
import { GatewayMetrics, observeRequests } from '@gateway/observability';
import { usagePendingGauge } from './usage-log-wiring';
import { loadProviders } from './providers';
import { allObservers, type AreaWiring, type WiringContext } from './wiring/context';
import { wireImages } from './wiring/images';
import { openResponseCache } from './wiring/response-cache';
import { administrationFor, wireAdministration, type Administration } from './wiring/administration';
import { wireOperations } from './wiring/operations';
import { wireMetered } from './wiring/metered';
import { wireFiles } from './wiring/files';
import { wireMcp } from './wiring/mcp';
import { wireBatches } from './wiring/batches';
import { wireText } from './wiring/text';
import { wireVideo } from './wiring/video';
import { wireWebhooks } from './wiring/webhooks';
import { wireRetention } from './wiring/retention';
import { compactionSecret } from './wiring/compaction-secret';
import { warnOfSealedSecrets } from './sealed-secrets-check';
import { rendererForUnroutedPath, wireRouters, type WireServices } from './wire-formats';
import { readinessCheck } from './readiness';
import { routeFormats } from './route-formats';
import { GATEWAY_ROUTE_DOCS } from './openapi';
import { checkStartupEnv } from './startup-checks';
import { openRepositories, openUsageLog, responseCacheInDatabase, type Repositories, type UsageLogStore } from './repositories';
import { openInfrastructure, type Infrastructure } from './infrastructure';
import { admissionPolicies, type Admission } from './wiring/admission';
import { gatewayLifecycle } from './gateway-lifecycle';
import type { GatewayEnv } from './gateway-env';
import { ssoSessions } from './wiring/sso';
import type { RedisLink } from '@gateway/rate-limit-redis';

export { envFromProcess, type GatewayEnv } from './gateway-env';

export interface Gateway {
  app: Express;
  env: GatewayEnv;
  config: GatewayConfig;
  db: Database;
  /** every repository over the store (repositories.ts) */
  stores: Repositories;
  usage: UsageLogStore;
  logger: Logger;
  /** opens the admin API to the local CLI (loopback callers only); main.ts hands it over in DATA_DIR's credential file */
  localAdminToken: string;
  /** starts background work (video workers); createGateway leaves it off so tests choose */
  startBackground(): Promise<void>;
  listen(port?: number, host?: string): Promise<Server>;
  close(): Promise<void>;
}

export interface GatewayOverrides {
  config?: GatewayConfig;
  logger?: Logger;
  /** tests: the clock key expiry and budget periods are read from */
  clock?: () => Date;
  /** tests: traces go to this exporter */
  spanExporter?: SpanExporter;
}

/**
 * The composition root: each store, policy and area is built once here and handed to what needs it. The order is
 * the start-up order: the environment was checked, then providers, the store, the catalogue, admission, the areas.
 */
export async function createGateway(env: GatewayEnv, overrides: GatewayOverrides = {}): Promise<Gateway> {
  const logger = overrides.logger ?? createLogger();
  const clock = overrides.clock ?? (() => new Date());
  const config = overrides.config ?? loadConfig(env.configPath, env.variables);
  config.catalogue.outsideGroupStatus = env.modelNotInGroupStatus ?? 503;
  checkStartupEnv(env);
  const providers = await loadProviders(config, { dataDir: env.dataDir }, env.configPath && dirname(env.configPath));
  const infra = await openInfrastructure(env, logger, providers, overrides.spanExporter);
  const { db } = infra;
  // webhook secrets are sealed with GATEWAY_SECRET; on the embedded store (one process per DATA_DIR) the secret
  // generated there serves when none is set, on a shared database nothing does
  const webhookSeal = {
    sealKey: env.secret ?? (db.kind === 'pglite' ? compactionSecret(env) : undefined),
    previousSealKey: env.previousSecret,
  };
  const stores = openRepositories(db.knex, env, { clock, webhookSeal });
  const runtime = new ConfigRuntime(stores.config, config, providers, env, logger, stores.mcpServers);
  await runtime.bootstrap().catch(async (e) => {
    await infra.close();
    throw e;
  });
  const usage = openUsageLog(db.knex, db.kind === 'pglite' && env.inMemoryDatabase ? null : env.dataDir, logger);
  const metrics = new GatewayMetrics(stores.taskStatistics, [usagePendingGauge(usage)]);
  const billing = new Billing(stores.quotas, { cacheMs: env.quotaCacheMs ?? 1000, now: () => clock().getTime() });
  const delegated = new DelegatedKeys();
  const admission = admissionPolicies(config, infra, stores.keys, billing, clock, env.accountLimits, delegated);
  const ctx: WiringContext = {
    env,
    config,
    knex: db.knex,
    stores,
    usage: admission.tokenRate.wrap(metrics.wrap(usage)),
    providers,
    logger,
    authenticate: admission.auth,
    metrics,
    billing,
    routingObserver: allObservers(metrics.routingObserver(logger), infra.tracing?.observer),
    content: infra.content.store,
    responseCache: openResponseCache(
      {
        maxBytes: env.responseCacheMaxBytes,
        redis: infra.redis,
        database: responseCacheInDatabase(db.knex),
      },
      metrics.responseCacheObserver(),
    ),
    clock,
  };
  await warnOfSealedSecrets(db.knex, { current: webhookSeal.sealKey, previous: env.previousSecret }, logger);
  const localAdminToken = newLocalAdminToken();
  const admin = administrationFor(stores, runtime, config, billing, env);
  const areas = gatewayAreas(ctx, { db, admin, runtime, localAdminToken, redis: infra.redis, delegated, app: () => app });
  const streamShutdown = new StreamShutdown();
  const app = createHttpApp({
    ready: readinessCheck({
      knex: db.knex,
      schema: db.schema,
      dataDir: env.dataDir,
      redis: infra.redis,
      content: infra.sharing && (() => infra.sharing!.status),
    }),
    routers: requestPipeline(ctx, infra, admission, streamShutdown, areas),
    trustProxy: env.trustProxy === true,
  });
  const lifecycle = gatewayLifecycle(app, env, logger, admission.auth, streamShutdown, async () => {
    for (const a of areas.all) await a.stop?.();
    await usage.flush();
    usage.stop();
    await infra.close();
  });
  return {
    ...lifecycle,
    localAdminToken,
    app,
    env,
    config,
    db,
    stores,
    usage,
    logger,
    async startBackground() {
      for (const a of areas.all) await a.start?.();
    },
  };
}

/** Each area of the product with its services, routers and background work. */
function gatewayAreas(
  ctx: WiringContext,
  deps: {
    db: Database;
    admin: Administration;
    runtime: ConfigRuntime;
    localAdminToken: string;
    redis?: RedisLink;
    delegated: DelegatedKeys;
    /** the app, for the batch runner's calls of its own routes (built after the areas) */
    app: () => Express;
  },
): { services: WireServices; all: AreaWiring[] } {
  const metered = wireMetered(ctx);
  const mcp = wireMcp(ctx);
  const [text, images, video, operations] = [
    wireText(ctx, metered.services.moderation, mcp.services.mcpGateway),
    wireImages(ctx, metered.services.moderation),
    wireVideo(ctx, metered.services.moderation),
    wireOperations(ctx),
  ];
  const webhooks = wireWebhooks(ctx, { videos: video.videos, database: deps.db, onTaskChange: video.wake });
  const files = wireFiles(ctx);
  const batches = wireBatches(ctx, files, deps.delegated, deps.app);
  const services: WireServices = {
    catalogue: ctx.config.catalogue,
    usage: ctx.usage,
    ...text.services,
    ...images.services,
    ...video.services,
    ...operations.services,
    ...webhooks.services,
    ...metered.services,
    files,
    ...batches.services,
    ...mcp.services,
  };
  const accountAdmin = wireAdministration(ctx, {
    ...deps,
    webhooks: webhooks.webhooks,
    videoContent: video.content,
    mcpGateway: mcp.services.mcpGateway,
  });
  return { services, all: [text, images, video, webhooks, operations, batches, wireRetention(ctx, files), accountAdmin] };
}

/** The middleware every request passes, in order, then the wire formats' routers and the areas' own. */
function requestPipeline(
  ctx: WiringContext,
  infra: Infrastructure,
  admission: Admission,
  streamShutdown: StreamShutdown,
  areas: { services: WireServices; all: AreaWiring[] },
) {
  const { metrics, logger } = ctx;
  return [
    observeRequests(
      metrics.openRequests,
      logger,
      (req, res, r) => {
        metrics.countRequest(r);
        infra.tracing?.requestFinished(req, res, r);
      },
      routeFormats(GATEWAY_ROUTE_DOCS),
    ),
    ...(infra.tracing ? [infra.tracing.middleware] : []),
    ...(infra.dbHealth ? [databaseGate(infra.dbHealth, rendererForUnroutedPath)] : []),
    // a dashboard session stands in for a key on the routes whose declaration accepts one (@gateway/sso)
    ssoSessions(ctx),
    // the concurrent-streams limit rides on SseWriter's admission hook (docs/reliability.md says why there)
    streamAdmission(admission.streamSlots, rendererForUnroutedPath),
    budgetHeaders,
    streamShutdown.middleware(),
    // before the routes: the challenge a refused MCP request carries (off unless `mcpOAuth`)
    mcpOAuthChallenge(areas.services.mcpOAuth),
    ...wireRouters(areas.services, ctx.authenticate),
    ...areas.all.flatMap((a) => a.routers ?? []),
  ];
}
