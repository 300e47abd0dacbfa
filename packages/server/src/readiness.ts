import { migrationsApplied, type Database } from '@gateway/store-postgres';
import type { RedisLink } from '@gateway/rate-limit-redis';
import type { Readiness } from '@gateway/observability';
import { probeWritable } from './startup-checks';

/** A load balancer polls /readyz about once a second: a database that does not answer within this is down. */
export const DATABASE_CHECK_MS = 800;

function within<T>(p: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((resolve) => (timer = setTimeout(() => resolve(late), ms)))]).finally(() => clearTimeout(timer));
}

export function readinessCheck(deps: {
  knex: Database['knex'];
  schema?: string;
  dataDir: string;
  redis?: RedisLink;
  /** on a shared database: whether this instance reads the other instances' content (core's ContentSharingCheck) */
  content?: () => string;
}): () => Promise<Readiness> {
  return async () => {
    const database = await within(
      migrationsApplied(deps.knex, deps.schema).then(
        (applied) => (applied ? 'ok' : 'migrations_pending'),
        () => 'unreachable',
      ),
      DATABASE_CHECK_MS,
      'unreachable',
    );
    const dataDir = probeWritable(deps.dataDir) ? 'not_writable' : 'ok';
    const checks: Record<string, string> = { database, data_dir: dataDir };
    let ready = database === 'ok' && dataDir === 'ok';
    if (deps.redis) {
      const up = deps.redis.healthy();
      // open: requests still flow, counted per instance, so the instance stays in rotation, marked degraded
      checks.redis = up ? 'ok' : `unreachable (limits fail ${deps.redis.policy})`;
      if (!up && deps.redis.policy === 'closed') ready = false;
    }
    if (deps.content) {
      checks.content_store = deps.content();
      if (checks.content_store !== 'ok') ready = false;
    }
    return { ready, checks };
  };
}
