import { dirname } from 'node:path';
import type { Express } from 'express';
import type { Server } from 'node:http';
import { authenticate, Billing, type KeyRepository } from '@gateway/core';
import { mountRoutes, REFUSED_PRINCIPAL, StreamShutdown } from '@gateway/http-kit';
import {
  KnexAuditedChanges,
  KnexConfigStore,
  KnexContentProbes,
  KnexKeyRepository,
  KnexQuotaRepository,
  KnexTaskRepository,
  KnexUsageLog,
  KnexUsageQuery,
  type Database,
} from '@gateway/store-postgres';
import { createHttpApp } from './app';
import { budgetHeaders, type BudgetedPrincipal } from './budget-headers';
import { loadConfig, type GatewayConfig } from './config';
import { createLogger, type Logger } from './logger';
import { AdminService } from './admin/admin-service';
import { adminRoutes } from './admin/admin.router';
import { adminKeyGate } from './admin/admin-route';
import { selfServiceRoutes } from './self-service/self-service.router';
import { ConfigRuntime } from './admin/config-runtime';
import { newLocalAdminToken } from './admin/local-credential';
import { envReferencePolicy } from './admin/env-reference-policy';
import { CachedKeyRepository } from './key-cache';
import { GatewayMetrics } from './metrics';
import { openUsageLog, usagePendingGauge } from './usage-log-wiring';
import { dashboardRouter } from './dashboard-route';
import { createKeyRateLimiter, createStreamSlots, createTokenRateLimiter, streamAdmission } from './rate-limits';
import { loadProviders } from './providers';
import { allObservers, type AreaWiring, type WiringContext } from './wiring/context';
import { wireImages } from './wiring/images';
import { wireOperations } from './wiring/operations';
import { wireText } from './wiring/text';
import { wireVideo } from './wiring/video';
import { wireWebhooks } from './wiring/webhooks';
import { wireRetention } from './wiring/retention';
import { compactionSecret } from './wiring/compaction-secret';
import { warnOfSealedSecrets } from './sealed-secrets-check';
import { errorShapeNamed, rendererForUnroutedPath, wireRouters, type WireServices } from './wire-formats';
import { createTimedServer } from './listen-timeouts';
import { responsesSocket } from '@gateway/wire-openai-responses';
import { attachSocketRoutes, loopbackOrigin } from './socket-upgrades';
import { databaseGate, watchDatabase } from './database-health';
import { readinessCheck } from './readiness';
import { observeRequests } from './request-observer';
import { routeFormats } from './route-formats';
import { GATEWAY_ROUTE_DOCS } from './openapi';
import { createRedisLink } from './redis-link';
import { checkStartupEnv, StartupError } from './startup-checks';
import { tracingIfConfigured } from './tracing-env';
import { instanceId, openStore } from './open-store';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { openContentStore, parseContentStore } from './content-store-config';
import { ContentSharingCheck } from './content-sharing';
import type { GatewayEnv } from './gateway-env';

export { envFromProcess, type GatewayEnv } from './gateway-env';

export interface Gateway {
  app: Express;
  env: GatewayEnv;
  config: GatewayConfig;
  db: Database;
  keys: KeyRepository;
  admin: AdminService;
  tasks: KnexTaskRepository;
  usage: KnexUsageLog;
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

export async function createGateway(env: GatewayEnv, overrides: GatewayOverrides = {}): Promise<Gateway> {
  const logger = overrides.logger ?? createLogger();
  const config = overrides.config ?? loadConfig(env.configPath);
  const providers = await loadProviders(config, { dataDir: env.dataDir }, env.configPath && dirname(env.configPath));
  config.catalogue.outsideGroupStatus = env.modelNotInGroupStatus ?? 503;
  checkStartupEnv(env);
  const tracing = await tracingIfConfigured(env.tracing, overrides.spanExporter, providers, logger);
  const contentChoice = parseContentStore(env.contentStore);
  const db = await openStore(env, logger);
  const content = openContentStore(contentChoice, { knex: db.knex, dataDir: env.dataDir });
  logger.info('content store', { store: content.location });
  // Only a shared database can have peers: check now, so the first /readyz already knows.
  const sharing =
    db.kind === 'postgres'
      ? new ContentSharingCheck(
          { probes: new KnexContentProbes(db.knex), content: content.store, location: content.location, instanceId: instanceId(), logger },
          env.contentProbeIntervalMs,
        )
      : undefined;
  await sharing?.run();
  sharing?.start();
  // one store: it keeps this instance's config-file keys, which the database never holds
  const configStore = new KnexConfigStore(db.knex, { secret: env.secret, previousSecret: env.previousSecret });
  const runtime = new ConfigRuntime(configStore, config, providers, { dataDir: env.dataDir }, logger);
  await runtime.bootstrap().catch(async (e) => {
    await db.close();
    throw e;
  });
  const storedKeys = new KnexKeyRepository(db.knex);
  const keys = env.keyCacheTtlMs ? new CachedKeyRepository(storedKeys, env.keyCacheTtlMs) : storedKeys;
  const tasks = new KnexTaskRepository(db.knex);
  const usage = openUsageLog(db.knex, db.kind === 'pglite' && env.inMemoryDatabase ? null : env.dataDir, logger);
  const metrics = new GatewayMetrics(db.knex, [usagePendingGauge(usage)]);
  const redis = env.redisUrl ? createRedisLink(env.redisUrl, env.rateLimitOnRedisError ?? 'open', logger) : undefined;
  await redis?.settled();
  const dbHealth = db.kind === 'postgres' ? watchDatabase(db.knex, logger) : undefined;
  // the live limits object: a catalogue reload changes it in place, on every instance alike
  const limiter = createKeyRateLimiter(config.limits, redis);
  const streamSlots = createStreamSlots(config.limits, redis);
  const tokenRate = createTokenRateLimiter(redis);
  const clock = overrides.clock ?? (() => new Date());
  const quotas = new KnexQuotaRepository(db.knex, { now: clock });
  const billing = new Billing(quotas, { cacheMs: env.quotaCacheMs ?? 1000, now: () => clock().getTime() });
  const auth = async (raw: string | undefined): Promise<BudgetedPrincipal> => {
    const principal = await authenticate(keys, raw, clock);
    try {
      await limiter.consume(principal);
      await tokenRate.check(principal);
    } catch (e) {
      // the refusal's log line names who was refused
      if (e instanceof Error) Object.assign(e, { [REFUSED_PRINCIPAL]: principal });
      throw e;
    }
    return { ...principal, budget: await billing.status(principal) };
  };
  const ctx: WiringContext = {
    env,
    config,
    knex: db.knex,
    keys,
    usage: tokenRate.wrap(metrics.wrap(usage)),
    providers,
    logger,
    authenticate: auth,
    metrics,
    billing,
    routingObserver: allObservers(metrics.routingObserver(logger), tracing?.observer),
    content: content.store,
    clock,
    // Webhook secrets are sealed like admin-written provider keys: with GATEWAY_SECRET; on the embedded store (one
    // process per DATA_DIR) the secret generated there serves when none is set, on a shared database nothing does.
    webhookSealKey: env.secret ?? (db.kind === 'pglite' ? compactionSecret(env) : undefined),
    webhookPreviousSealKey: env.previousSecret,
  };
  await warnOfSealedSecrets(db.knex, { current: ctx.webhookSealKey, previous: env.previousSecret }, logger);
  const localAdminToken = newLocalAdminToken();
  const admin = new AdminService(
    keys,
    configStore,
    runtime,
    config.catalogue,
    quotas,
    {
      changes: new KnexAuditedChanges(db.knex, { now: clock, afterCommit: () => (keys as { clear?: () => void }).clear?.() }),
      ctx: { actor: { type: 'admin_key', id: 'admin' }, requestId: null, address: null },
    },
    billing,
    envReferencePolicy(config.written, env.allowedEnv),
  );
  const [text, images, video, operations] = [wireText(ctx), wireImages(ctx), wireVideo(ctx), wireOperations(ctx)];
  const webhooks = wireWebhooks(ctx, { videos: video.videos, database: db });
  const services: WireServices = {
    catalogue: config.catalogue,
    usage: ctx.usage,
    ...text.services,
    ...images.services,
    ...video.services,
    ...operations.services,
    ...webhooks.services,
  };
  const areas: AreaWiring[] = [
    text,
    images,
    video,
    webhooks,
    operations,
    wireRetention(ctx),
    {
      routers: [
        mountRoutes(
          selfServiceRoutes,
          { admin, clock, catalogue: config.catalogue, quotas, gatewayLimits: config.limits },
          { authenticate: auth, errorShape: errorShapeNamed },
        ),
        mountRoutes(
          adminRoutes,
          { admin, usage: new KnexUsageQuery(db.knex), webhooks: webhooks.webhooks },
          { admin: adminKeyGate(env.adminKey, localAdminToken), errorShape: errorShapeNamed },
        ),
        dashboardRouter(),
      ],
      start: () => runtime.start(env.configPollMs ?? 2000),
      stop: async () => runtime.stop(),
    },
  ];

  const streamShutdown = new StreamShutdown();
  const app = createHttpApp({
    ready: readinessCheck({ knex: db.knex, schema: db.schema, dataDir: env.dataDir, redis, content: sharing && (() => sharing.status) }),
    // The concurrent-streams limit rides on SseWriter's admission hook (docs/reliability.md says why there).
    routers: [
      observeRequests(
        metrics.openRequests,
        logger,
        (req, res, r) => {
          metrics.countRequest(r);
          tracing?.requestFinished(req, res, r);
        },
        routeFormats(GATEWAY_ROUTE_DOCS),
      ),
      ...(tracing ? [tracing.middleware] : []),
      ...(dbHealth ? [databaseGate(dbHealth, rendererForUnroutedPath)] : []),
      streamAdmission(streamSlots, rendererForUnroutedPath),
      budgetHeaders,
      streamShutdown.middleware(),
      ...wireRouters(services, auth),
      ...areas.flatMap((a) => a.routers ?? []),
    ],
  });

  const servers: Server[] = [];
  const sockets: Array<{ close(): void }> = [];
  return {
    localAdminToken,
    app,
    env,
    config,
    db,
    keys,
    tasks,
    usage,
    logger,
    admin,
    async startBackground() {
      for (const a of areas) await a.start?.();
    },
    listen(port = env.port, host = env.host) {
      return new Promise((resolve, reject) => {
        const server = createTimedServer(app, env.listenTimeouts);
        // the Responses API's WebSocket mode (Codex): each response runs through the HTTP route on this listener
        sockets.push(attachSocketRoutes(server, [responsesSocket({ authenticate: auth, origin: () => loopbackOrigin(server) })], logger));
        server.once('error', (e: NodeJS.ErrnoException) => reject(listenError(e, port, host)));
        server.listen(port, host, () => {
          servers.push(server);
          resolve(server);
        });
      });
    },
    /**
     * Graceful: stop accepting, let in-flight requests and streams finish up to the grace deadline, then end the
     * open streams with their format's error event (server_shutting_down) and cut what is left; stop background work (the worker releases its claims); flush the usage log; close the store.
     */
    async close() {
      const grace = env.shutdownGraceMs ?? 10000;
      for (const s of sockets) s.close();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => void streamShutdown.fire().then(() => s.closeAllConnections()), grace);
              timer.unref();
              s.close(() => {
                clearTimeout(timer);
                resolve();
              });
              s.closeIdleConnections();
            }),
        ),
      );
      for (const a of areas) await a.stop?.();
      await limiter.close();
      await streamSlots.close();
      redis?.close();
      dbHealth?.stop();
      providers.close(); // the upstreams' keep-alive sockets
      await sharing?.stop();
      content.close();
      await usage.flush();
      usage.stop();
      await db.close();
      await tracing?.shutdown();
    },
  };
}

/** Traces when configured: the SDK is loaded only then, so a gateway without them pays nothing for them. */
function listenError(e: NodeJS.ErrnoException, port: number, host: string): Error {
  if (e.code === 'EADDRINUSE')
    return new StartupError(`Port ${port} on ${host} is already in use: stop what holds it or set PORT.`, 'port_in_use');
  if (e.code === 'EACCES')
    return new StartupError(`Port ${port} on ${host} needs privileges this process lacks: use a port above 1023.`, 'port_denied');
  return e;
}
