import { StartupError } from './startup-checks';
import { listenTimeoutsOf, type ListenTimeouts } from './listen-timeouts';
import { isOn, readEnv, type EnvValues } from './env.schema';
import type { RedisErrorPolicy } from '@gateway/rate-limit-redis';
import { DEFAULT_ACCOUNT_LIMITS, type AccountLimits } from '@gateway/core';
import { tracingFromEnv, type TracingEnv } from '@gateway/observability';
import { webhookEnvOf, type WebhookEnv } from './wiring/webhooks-env';
import type { VideoEngineOptions } from './wiring/video-engine';
import os from 'node:os';

/**
 * Where the gateway reads its environment: entry points (main.ts, cli.ts) pass `process.env` here and
 * hand the result on; no other module reads a variable (an architecture test keeps it so).
 */
import { oidcFromEnv } from './oidc-env';
import type { OidcEnv } from '@gateway/sso';

/** The operator contract: environment variables and their defaults. */
export interface GatewayEnv {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  /** PUBLIC_BASE_URL, or without it `http://localhost:$PORT`: the base of links minted without a request (webhooks) */
  publicBaseUrl: string;
  /** PUBLIC_BASE_URL unset: links in answers use the origin each request came in on (public-links.ts) */
  publicBaseUrlDerived?: boolean;
  /** TRUST_PROXY: X-Forwarded-Host and X-Forwarded-Proto name that origin (only behind a proxy that sets them) */
  trustProxy?: boolean;
  configPath?: string;
  demoKey?: string;
  /** GATEWAY_ADMIN_KEY: guards /admin and (unless METRICS_PUBLIC=true) /metrics */
  adminKey?: string;
  metricsPublic?: boolean;
  /** REDIS_URL: shared rate-limit counters across instances, and where the response cache is kept */
  redisUrl?: string;
  /** RESPONSE_CACHE_MAX_BYTES (256 MiB): the response cache's answers together; past it the oldest are evicted */
  responseCacheMaxBytes?: number;
  /** RATE_LIMIT_ON_REDIS_ERROR: while Redis cannot answer, limits fail open (counted per instance) or closed (503) */
  rateLimitOnRedisError?: RedisErrorPolicy;
  /** MAX_KEYS_PER_ACCOUNT (500): live keys of one account; creating one more is refused (400 `exceeds_key_count`) */
  maxKeysPerAccount?: number;
  /** REQUESTS_PER_MINUTE_PER_ACCOUNT, TOKENS_PER_MINUTE_PER_ACCOUNT, CONCURRENT_STREAMS_PER_ACCOUNT: all keys of one account together */
  accountLimits?: AccountLimits;
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
  /** tests: the dump of a migrated store that the in-memory database starts from (store-postgres test/memory-image.ts) */
  memoryImage?: string;
  /** tests: the upload limit of POST /v1/files in bytes (default 200 MiB, the contract's: core FILE_LIMITS) */
  fileUploadBytes?: number;
  /** BATCH_CONCURRENCY_PER_ACCOUNT (8), BATCH_LINE_DELAY_MS (0), BATCH_COMPLETION_WINDOW_MS (24 h); tests: the runner's idle interval */
  batches?: { concurrencyPerAccount?: number; lineDelayMs?: number; windowMs?: number; intervalMs?: number };
  /** DATABASE_SCHEMA: a Postgres schema of its own (created if missing); tests give each run one */
  databaseSchema?: string;
  /** GATEWAY_SECRET: encrypts provider keys written through the admin API (AES-256-GCM); without it, literal keys are refused there */
  secret?: string;
  /** GATEWAY_SECRET_PREVIOUS: the secret being rotated out; it still opens what it sealed (docs/security.md) */
  previousSecret?: string;
  /** GATEWAY_ALLOWED_ENV: variables (names or `PREFIX_*`, comma list) an admin may name as `env:NAME` besides the config file's */
  allowedEnv?: string;
  /** HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS (listen-timeouts.ts) */
  listenTimeouts?: ListenTimeouts;
  /** RESPONSES_WS_MAX_PER_KEY: Responses WebSocket connections one key may hold open on an instance */
  responsesSocketsPerKey?: number;
  /** RESPONSES_RETENTION_DAYS: stored responses older than this are deleted (0 = kept forever) */
  responsesRetentionDays?: number;
  /** USAGE_RETENTION_DAYS (0: kept), WEBHOOK_DELIVERY_RETENTION_DAYS (30): the retention job (wiring/retention.ts) */
  retention?: { usageDays: number; webhookDeliveryDays: number };
  /** OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) and OTEL_SERVICE_NAME: traces over OTLP/HTTP; off when unset */
  tracing?: TracingEnv;
  /** CONTENT_STORE: file (DATA_DIR/content, the default), postgres, or s3://bucket/prefix (content-store-config.ts) */
  contentStore?: string;
  /** CONTENT_PROBE_INTERVAL_MS: how often instances on a shared database re-check that they read each other's content */
  contentProbeIntervalMs?: number;
  /**
   * WEBHOOK_ALLOWED_HOSTS, WEBHOOK_RETRY_*, WEBHOOK_TIMEOUT_MS, WEBHOOK_WORKER_INTERVAL_MS, WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT,
   * TASK_EVENTS_POLL_MS, TASK_EVENTS_MAX_PER_KEY, TASK_EVENTS_MAX_PER_INSTANCE
   */
  webhooks?: WebhookEnv;
  /** MODEL_NOT_IN_GROUP_STATUS: 503 (the specification's, the default) or 403, which coding agents do not retry */
  modelNotInGroupStatus?: 403 | 503;
  /** S3_ENDPOINT, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION / AWS_DEFAULT_REGION, S3_FORCE_PATH_STYLE: CONTENT_STORE=s3://… */
  s3?: S3Env;
  /** VIDEO_WORKER_INTERVAL_MS, VIDEO_WORKER_CONCURRENCY, VIDEO_WORKER_LEASE_MS, VIDEO_POLL_MIN_MS, VIDEO_POLL_MAX_MS */
  videoWorker?: VideoEngineOptions;
  /** WORKERS: processes sharing the port (cluster.ts) */
  workers?: number;
  /** GATEWAY_CLUSTER_FOLLOWER: set by the primary in every worker but the first (cluster.ts) */
  clusterFollower?: boolean;
  /** NODE_ENV=production without ALLOW_DEMO_IN_PRODUCTION=true: the demo account is refused (startup-checks.ts) */
  refuseDemo?: boolean;
  /** the variables a config file's `apiKey: "env:NAME"` may name (config.ts resolves them; GATEWAY_ALLOWED_ENV bounds admin writes) */
  variables?: Readonly<Record<string, string | undefined>>;
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_ROLE_CLAIM, OIDC_SCOPES: dashboard single sign-on (oidc-env.ts) */
  oidc?: OidcEnv;
}

/** Where an S3 content store is and how to sign in to it; validated with CONTENT_STORE (content-store-config.ts). */
export interface S3Env {
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  region?: string;
  forcePathStyle?: string;
}

export const CLUSTER_FOLLOWER_ENV = 'GATEWAY_CLUSTER_FOLLOWER';

/** LOG_LEVEL and LOG_FORMAT: read apart from the rest, so a start that fails on another variable is still logged. */
export function loggingFromEnv(e: NodeJS.ProcessEnv): { level: string; format: 'json' | 'pretty' } {
  return { level: e.LOG_LEVEL || 'info', format: e.LOG_FORMAT === 'pretty' ? 'pretty' : 'json' };
}

/** Worker knobs (docs/video-engine.md); unset ones keep the worker's defaults. */
function videoEngineOptionsOf(v: EnvValues): VideoEngineOptions {
  const opts: VideoEngineOptions = {
    intervalMs: v.VIDEO_WORKER_INTERVAL_MS,
    concurrency: v.VIDEO_WORKER_CONCURRENCY,
    leaseMs: v.VIDEO_WORKER_LEASE_MS,
    pollMinMs: v.VIDEO_POLL_MIN_MS,
    pollMaxMs: v.VIDEO_POLL_MAX_MS,
  };
  return Object.fromEntries(Object.entries(opts).filter(([, x]) => x !== undefined));
}

export function s3EnvFrom(e: NodeJS.ProcessEnv): S3Env {
  return {
    endpoint: e.S3_ENDPOINT || undefined,
    accessKeyId: e.AWS_ACCESS_KEY_ID || undefined,
    secretAccessKey: e.AWS_SECRET_ACCESS_KEY || undefined,
    region: e.AWS_REGION || e.AWS_DEFAULT_REGION || undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

export function envFromProcess(e: NodeJS.ProcessEnv): GatewayEnv {
  const v = readEnv(e);
  const port = v.PORT!;
  if (e.GATEWAY_SECRET && e.GATEWAY_SECRET.length < 16)
    throw new StartupError(
      `GATEWAY_SECRET is too short (${e.GATEWAY_SECRET.length} characters; at least 16): set a long random value, the same on every instance, or unset it.`,
      'gateway_secret_too_short',
    );
  return {
    port,
    host: e.HOST ?? '0.0.0.0',
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir: e.DATA_DIR ?? './.gateway-data',
    publicBaseUrl: (e.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    publicBaseUrlDerived: !e.PUBLIC_BASE_URL,
    trustProxy: isOn(v.TRUST_PROXY),
    configPath: e.GATEWAY_CONFIG || undefined,
    demoKey: e.GATEWAY_DEMO_KEY || undefined,
    adminKey: e.GATEWAY_ADMIN_KEY || undefined,
    secret: e.GATEWAY_SECRET || undefined,
    previousSecret: e.GATEWAY_SECRET_PREVIOUS && e.GATEWAY_SECRET_PREVIOUS.length >= 16 ? e.GATEWAY_SECRET_PREVIOUS : undefined,
    allowedEnv: e.GATEWAY_ALLOWED_ENV || undefined,
    metricsPublic: isOn(v.METRICS_PUBLIC),
    redisUrl: e.REDIS_URL || undefined,
    rateLimitOnRedisError: v.RATE_LIMIT_ON_REDIS_ERROR === 'closed' ? 'closed' : 'open',
    maxKeysPerAccount: v.MAX_KEYS_PER_ACCOUNT,
    accountLimits: {
      requestsPerMinute: v.REQUESTS_PER_MINUTE_PER_ACCOUNT ?? DEFAULT_ACCOUNT_LIMITS.requestsPerMinute,
      tokensPerMinute: v.TOKENS_PER_MINUTE_PER_ACCOUNT ?? DEFAULT_ACCOUNT_LIMITS.tokensPerMinute,
      concurrentStreams: v.CONCURRENT_STREAMS_PER_ACCOUNT ?? DEFAULT_ACCOUNT_LIMITS.concurrentStreams,
    },
    keyCacheTtlMs: v.KEY_CACHE_TTL_MS,
    shutdownGraceMs: v.SHUTDOWN_GRACE_MS,
    configPollMs: v.CONFIG_POLL_MS,
    quotaCacheMs: v.QUOTA_CACHE_MS,
    responseCacheMaxBytes: v.RESPONSE_CACHE_MAX_BYTES,
    databaseSchema: e.DATABASE_SCHEMA || undefined,
    responsesRetentionDays: v.RESPONSES_RETENTION_DAYS,
    responsesSocketsPerKey: v.RESPONSES_WS_MAX_PER_KEY,
    retention: { usageDays: v.USAGE_RETENTION_DAYS!, webhookDeliveryDays: v.WEBHOOK_DELIVERY_RETENTION_DAYS! },
    listenTimeouts: listenTimeoutsOf(v),
    tracing: tracingFromEnv(e),
    contentStore: e.CONTENT_STORE || undefined,
    contentProbeIntervalMs: v.CONTENT_PROBE_INTERVAL_MS,
    batches: {
      concurrencyPerAccount: v.BATCH_CONCURRENCY_PER_ACCOUNT,
      lineDelayMs: v.BATCH_LINE_DELAY_MS,
      windowMs: v.BATCH_COMPLETION_WINDOW_MS,
    },
    webhooks: webhookEnvOf(v, e),
    modelNotInGroupStatus: v.MODEL_NOT_IN_GROUP_STATUS === 403 ? 403 : 503,
    s3: s3EnvFrom(e),
    videoWorker: videoEngineOptionsOf(v),
    workers: workerCount(e.WORKERS),
    clusterFollower: e[CLUSTER_FOLLOWER_ENV] === '1',
    refuseDemo: e.NODE_ENV === 'production' && e.ALLOW_DEMO_IN_PRODUCTION !== 'true',
    variables: { ...e },
    oidc: oidcFromEnv(e),
  };
}

/** WORKERS=N: N gateway processes sharing the port (cluster.ts, docs/scaling.md). */
function workerCount(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  if (raw.trim() === 'auto') return os.availableParallelism();
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 256) {
    throw new StartupError(`WORKERS must be a whole number from 1 to 256, or "auto", not "${raw}".`, 'workers_invalid');
  }
  return n;
}
