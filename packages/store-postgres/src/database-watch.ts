import type { Database } from './db';

/** How often PostgreSQL is asked `select 1`, and how long it has to answer before it counts as down. */
const PROBE_EVERY_MS = 500;
const PROBE_BUDGET_MS = 800;

export interface DatabaseHealth {
  healthy(): boolean;
  stop(): void;
}

/**
 * Watches PostgreSQL so requests fail fast while it is gone instead of each waiting for a pool timeout. Each outage
 * and recovery is logged once at warn.
 */
export function watchDatabase(knex: Database['knex'], logger: { warn(message: string, meta: object): unknown }): DatabaseHealth {
  let up = true;
  let probing = false;
  const probe = async () => {
    if (probing) return;
    probing = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_BUDGET_MS} ms`)), PROBE_BUDGET_MS);
    });
    try {
      await Promise.race([knex.raw('select 1'), late]);
      if (!up) logger.warn('database reachable again', {});
      up = true;
    } catch (e) {
      if (up) logger.warn('database unreachable: requests answered 503 until it returns', { error: (e as Error).message });
      up = false;
    } finally {
      clearTimeout(timer);
      probing = false;
    }
  };
  const interval = setInterval(() => void probe(), PROBE_EVERY_MS);
  interval.unref();
  return { healthy: () => up, stop: () => clearInterval(interval) };
}
