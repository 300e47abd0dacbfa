import type { Express } from 'express';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import type { Server } from 'node:http';
import path from 'node:path';
import { authenticate, Billing, type KeyRepository } from '@gateway/core';
import { StreamShutdown } from '@gateway/http-kit';
import {
  KnexConfigStore,
  KnexContentProbes,
  KnexKeyRepository,
  KnexQuotaRepository,
  KnexTaskRepository,
  KnexUsageLog,
  KnexUsageQuery,
  openDatabase,
  type Database,
} from '@gateway/store-postgres';
import { createHttpApp } from './app';
import { budgetHeaders, type BudgetedPrincipal } from './budget-headers';
import { loadConfig, type GatewayConfig } from './config';
import { createLogger, type Logger } from './logger';
import { AdminService } from './admin/admin-service';
import { adminRouter } from './admin/admin.router';
import { ConfigRuntime } from './admin/config-runtime';
import { newLocalAdminToken } from './admin/local-credential';
import { envReferencePolicy } from './admin/env-reference-policy';
import { CachedKeyRepository } from './key-cache';
import { GatewayMetrics } from './metrics';
import { dashboardRouter } from './dashboard-route';
import { createKeyRateLimiter, createStreamSlots, createTokenRateLimiter, streamAdmission } from './rate-limits';
import { buildProviders } from './providers';
import { allObservers, type AreaWiring, type WiringContext } from './wiring/context';
import { wireImages } from './wiring/images';
import { wireOperations } from './wiring/operations';
import { wireText } from './wiring/text';
import { wireVideo } from './wiring/video';
import { wireWebhooks } from './wiring/webhooks';
import { webhookEnvFromProcess, type WebhookEnv } from './wiring/webhooks-env';
import { compactionSecret } from './wiring/compaction-secret';
import { adminWebhooksRouter } from './admin/admin-webhooks.router';
import { wholeNumberFromEnv } from './env-number';
import { errorShapeNamed, rendererForUnroutedPath, wireRouters, type WireServices } from './wire-formats';
import { createTimedServer, listenTimeoutsFromEnv, type ListenTimeouts } from './listen-timeouts';
import { databaseGate, watchDatabase } from './database-health';
import { readinessCheck } from './readiness';
import { observeRequests } from './request-observer';
import { routeFormats } from './route-formats';
import { GATEWAY_ROUTE_DOCS } from './openapi';
import { createRedisLink, parseRedisErrorPolicy, type RedisErrorPolicy } from './redis-link';
import { checkStartupEnv, databaseStartupError, StartupError } from './startup-checks';
import { tracingFromEnv, type TracingEnv } from './tracing-env';
import type { Tracing } from './tracing';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { openContentStore, parseContentStore } from './content-store-config';
import { ContentSharingCheck } from './content-sharing';

/** The operator contract: environment variables and their defaults. */
export interface GatewayEnv {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  publicBaseUrl: string;
  configPath?: string;
  demoKey?: string;
  /** GATEWAY_ADMIN_KEY: guards /admin and (unless METRICS_PUBLIC=true) /metrics */
  adminKey?: string;
  metricsPublic?: boolean;
  /** REDIS_URL: shared rate-limit counters across instances */
  redisUrl?: string;
  /** RATE_LIMIT_ON_REDIS_ERROR: while Redis cannot answer, limits fail open (counted per instance) or closed (503) */
  rateLimitOnRedisError?: RedisErrorPolicy;
  /** KEY_CACHE_TTL_MS: how long a key lookup is cached (bounds how long a revoked key keeps working elsewhere) */
  keyCacheTtlMs?: number;
  /** QUOTA_CACHE_MS: how long a quota read is reused by prechecks (other instances' charges show within it) */
  quotaCacheMs?: number;
  /** CONFIG_POLL_MS: how often an instance checks the store for admin config changes */
  configPollMs?: number;
  /** SHUTDOWN_GRACE_MS: how long SIGTERM waits for in-flight requests and streams */
  shutdownGraceMs?: number;
  /** tests: keep the embedded database in memory instead of under dataDir */
  inMemoryDatabase?: boolean;
  /** DATABASE_SCHEMA: a Postgres schema of its own (created if missing); tests give each run one */
  databaseSchema?: string;
  /** GATEWAY_SECRET: encrypts provider keys written through the admin API (AES-256-GCM); without it, literal keys are refused there */
  secret?: string;
  /** GATEWAY_ALLOWED_ENV: variables (names or `PREFIX_*`, comma list) an admin may name as `env:NAME` besides the config file's */
  allowedEnv?: string;
  /** HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS (listen-timeouts.ts) */
  listenTimeouts?: ListenTimeouts;
  /** RESPONSES_RETENTION_DAYS: stored responses older than this are deleted (0 = kept forever) */
  responsesRetentionDays?: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) and OTEL_SERVICE_NAME: traces over OTLP/HTTP; off when unset */
  tracing?: TracingEnv;
  /** CONTENT_STORE: file (DATA_DIR/content, the default), postgres, or s3://bucket/prefix (content-store-config.ts) */
  contentStore?: string;
  /** CONTENT_PROBE_INTERVAL_MS: how often instances on a shared database re-check that they read each other's content */
  contentProbeIntervalMs?: number;
  /** WEBHOOK_ALLOWED_HOSTS, WEBHOOK_RETRY_*, WEBHOOK_TIMEOUT_MS, WEBHOOK_WORKER_INTERVAL_MS, TASK_EVENTS_POLL_MS */
  webhooks?: WebhookEnv;
}

export function envFromProcess(e: NodeJS.ProcessEnv = process.env): GatewayEnv {
  const port = Number(e.PORT ?? 8080);
  return {
    port,
    host: e.HOST ?? '0.0.0.0',
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir: e.DATA_DIR ?? './.gateway-data',
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    configPath: e.GATEWAY_CONFIG || undefined,
    demoKey: e.GATEWAY_DEMO_KEY || undefined,
    adminKey: e.GATEWAY_ADMIN_KEY || undefined,
    // the same 16-character floor as the compaction seal (wiring/compaction-secret.ts)
    secret: e.GATEWAY_SECRET && e.GATEWAY_SECRET.length >= 16 ? e.GATEWAY_SECRET : undefined,
    allowedEnv: e.GATEWAY_ALLOWED_ENV || undefined,
    metricsPublic: e.METRICS_PUBLIC === 'true',
    redisUrl: e.REDIS_URL || undefined,
    rateLimitOnRedisError: parseRedisErrorPolicy(e.RATE_LIMIT_ON_REDIS_ERROR),
    keyCacheTtlMs: e.KEY_CACHE_TTL_MS === undefined ? 2000 : Number(e.KEY_CACHE_TTL_MS),
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS === undefined ? 10000 : Number(e.SHUTDOWN_GRACE_MS),
    configPollMs: e.CONFIG_POLL_MS === undefined ? 2000 : Number(e.CONFIG_POLL_MS),
    quotaCacheMs: e.QUOTA_CACHE_MS === undefined ? 1000 : Number(e.QUOTA_CACHE_MS),
    databaseSchema: e.DATABASE_SCHEMA || undefined,
    responsesRetentionDays: wholeNumberFromEnv(e, 'RESPONSES_RETENTION_DAYS', 0) ?? 30,
    listenTimeouts: listenTimeoutsFromEnv(e),
    tracing: tracingFromEnv(e),
    contentStore: e.CONTENT_STORE || undefined,
    contentProbeIntervalMs: wholeNumberFromEnv(e, 'CONTENT_PROBE_INTERVAL_MS', 1),
    webhooks: webhookEnvFromProcess(e),
  };
}

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
  const providers = buildProviders(config, { dataDir: env.dataDir });
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
  const configStore = new KnexConfigStore(db.knex, { secret: env.secret });
  const runtime = new ConfigRuntime(configStore, config, providers, { dataDir: env.dataDir }, logger);
  await runtime.bootstrap().catch(async (e) => {
    await db.close();
    throw e;
  });
  const storedKeys = new KnexKeyRepository(db.knex);
  const keys = env.keyCacheTtlMs ? new CachedKeyRepository(storedKeys, env.keyCacheTtlMs) : storedKeys;
  const tasks = new KnexTaskRepository(db.knex);
  const usage = new KnexUsageLog(db.knex, { onError: (e) => logger.error('usage log write failed', { error: (e as Error).message }) });
  const metrics = new GatewayMetrics(db.knex);
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
    await limiter.consume(principal);
    await tokenRate.check(principal);
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
  };
  const localAdminToken = newLocalAdminToken();
  const admin = new AdminService(
    keys,
    configStore,
    runtime,
    config.catalogue,
    quotas,
    billing,
    envReferencePolicy(config.written, env.allowedEnv),
  );
  const [text, images, video, operations] = [wireText(ctx), wireImages(ctx), wireVideo(ctx), wireOperations(ctx)];
  const webhooks = wireWebhooks(ctx, { videos: video.videos, database: db });
  const services: WireServices = {
    authenticate: auth,
    catalogue: config.catalogue,
    usage: ctx.usage,
    errorShape: errorShapeNamed,
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
    {
      routers: [
        adminWebhooksRouter(webhooks.webhooks, env.adminKey, localAdminToken),
        adminRouter(admin, new KnexUsageQuery(db.knex), env.adminKey, localAdminToken),
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
      ...wireRouters(services),
      ...areas.flatMap((a) => a.routers ?? []),
    ],
  });

  const servers: Server[] = [];
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
      await db.close();
      await tracing?.shutdown();
    },
  };
}

/** Traces when configured: the SDK is loaded only then, so a gateway without them pays nothing for them. */
async function tracingIfConfigured(
  env: TracingEnv | undefined,
  exporter: SpanExporter | undefined,
  providers: { typeOf(id: string): string | undefined },
  logger: Logger,
): Promise<Tracing | undefined> {
  if (!env && !exporter) return undefined;
  if (env) logger.info('tracing on', { tracesUrl: loggableTracesUrl(env.tracesUrl), serviceName: env.serviceName });
  const { startTracing } = await import('./tracing');
  return startTracing({ env, exporter, providerType: (id) => providers.typeOf(id) });
}

/** The traces URL fit for a log line (user info dropped); one that is not http(s) stops start-up. */
function loggableTracesUrl(url: string): string {
  const u = URL.canParse(url) ? new URL(url) : undefined;
  if (!u || !/^https?:$/.test(u.protocol))
    throw new StartupError(
      'OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL: OTLP/HTTP is the exporter this build has.',
      'bad_otlp_endpoint',
    );
  u.username = '';
  u.password = '';
  return u.toString();
}

/** Opens the store, saying what it does: the first start of the embedded store takes a while. */
async function openStore(env: GatewayEnv, logger: Logger): Promise<Database> {
  const started = Date.now();
  const dataDir = env.inMemoryDatabase ? undefined : env.dataDir;
  if (env.databaseUrl) logger.info('opening PostgreSQL and applying migrations', { schema: env.databaseSchema });
  else if (dataDir && !existsSync(path.resolve(dataDir, 'pglite')))
    logger.info('first start: creating the embedded store (this takes a while, later starts are quick)', {
      dir: path.resolve(dataDir, 'pglite'),
    });
  else logger.info('opening the embedded store and applying migrations', { inMemory: !dataDir });
  try {
    const db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir, schema: env.databaseSchema });
    logger.info('store ready', { store: db.kind, ms: Date.now() - started });
    return db;
  } catch (e) {
    throw env.databaseUrl ? databaseStartupError(env.databaseUrl, e) : e;
  }
}

/** Names this process among the instances on one database (content probes). */
function instanceId(): string {
  return `${os.hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

function listenError(e: NodeJS.ErrnoException, port: number, host: string): Error {
  if (e.code === 'EADDRINUSE')
    return new StartupError(`Port ${port} on ${host} is already in use: stop what holds it or set PORT.`, 'port_in_use');
  if (e.code === 'EACCES')
    return new StartupError(`Port ${port} on ${host} needs privileges this process lacks: use a port above 1023.`, 'port_denied');
  return e;
}
