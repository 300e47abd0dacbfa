import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ContentSharingCheck } from '@gateway/core';
import { openContentStore, parseContentStore } from './content-store-config';
import { contentStoreInDatabase } from './repositories';
import type { GatewayEnv } from './gateway-env';
import type { Logger } from '@gateway/observability';
import { instanceId, openStore } from './open-store';
import { openContentProbes } from './repositories';
import type { ProviderRegistry } from './providers';
import { createRedisLink } from '@gateway/rate-limit-redis';
import { watchDatabase } from '@gateway/store-postgres';
import { tracingIfConfigured } from './tracing-start';

export type Infrastructure = Awaited<ReturnType<typeof openInfrastructure>>;

/** What lives outside the process: traces, the database, the content store and its sharing check, Redis. */
export async function openInfrastructure(env: GatewayEnv, logger: Logger, providers: ProviderRegistry, spanExporter?: SpanExporter) {
  const tracing = await tracingIfConfigured(env.tracing, spanExporter, providers, logger);
  const contentChoice = parseContentStore(env.contentStore, env.s3);
  const db = await openStore(env, logger);
  const content = openContentStore(contentChoice, { inDatabase: () => contentStoreInDatabase(db.knex), dataDir: env.dataDir });
  logger.info('content store', { store: content.location });
  // Only a shared database can have peers: check now, so the first /readyz already knows.
  const sharing =
    db.kind === 'postgres'
      ? new ContentSharingCheck(
          { probes: openContentProbes(db.knex), content: content.store, location: content.location, instanceId: instanceId(), logger },
          env.contentProbeIntervalMs,
        )
      : undefined;
  await sharing?.run();
  sharing?.start();
  const redis = env.redisUrl ? createRedisLink(env.redisUrl, env.rateLimitOnRedisError ?? 'open', logger) : undefined;
  await redis?.settled();
  const dbHealth = db.kind === 'postgres' ? watchDatabase(db.knex, logger) : undefined;
  return {
    tracing,
    db,
    content,
    sharing,
    redis,
    dbHealth,
    async close() {
      redis?.close();
      dbHealth?.stop();
      providers.close(); // the upstreams' keep-alive sockets
      await sharing?.stop();
      content.close();
      await db.close();
      await tracing?.shutdown();
    },
  };
}
