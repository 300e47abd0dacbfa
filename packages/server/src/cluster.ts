import cluster, { type Worker } from 'node:cluster';
import { ClusterMetrics } from '@gateway/observability';
import type { GatewayEnv } from './gateway';
import type { Logger } from '@gateway/observability';
import { StartupError } from './startup-checks';
import { CLUSTER_FOLLOWER_ENV } from './gateway-env';

/**
 * WORKERS=N: N gateway processes (node cluster) sharing the port. Every piece of shared state already lives in
 * PostgreSQL (keys, credits, tasks, the catalogue) or Redis (rate limits), so the workers are ordinary instances;
 * the embedded store has one writer and in-process limits would multiply, so both are refused (docs/scaling.md).
 */
export function checkClusterEnv(env: Pick<GatewayEnv, 'databaseUrl' | 'redisUrl'>, workers: number): void {
  if (workers === 1) return;
  if (!env.databaseUrl) {
    throw new StartupError(
      `WORKERS=${workers} needs DATABASE_URL (PostgreSQL): the embedded store in DATA_DIR has a single writer.`,
      'workers_need_postgres',
    );
  }
  if (!env.redisUrl) {
    throw new StartupError(
      `WORKERS=${workers} needs REDIS_URL: without it each worker would count rate limits on its own.`,
      'workers_need_redis',
    );
  }
}

/**
 * The primary: starts the first worker (it migrates and bootstraps), then the others once it listens; passes
 * SIGTERM/SIGINT on and exits when they are gone; a worker that dies on its own is replaced, at most once a second.
 * Resolves with the exit code.
 */
export function runPrimary(workers: number, logger: Logger): Promise<number> {
  return new Promise((resolve) => {
    const listened = new WeakSet<Worker>();
    const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    let stopping = false;
    let exitCode = 0;
    let nextFork = 0;
    const metrics = new ClusterMetrics();
    const fork = (follower: boolean): Worker => {
      const worker = cluster.fork(follower ? { [CLUSTER_FOLLOWER_ENV]: '1' } : {});
      metrics.attach(worker);
      return worker;
    };
    const first = fork(false);
    let started = 0;
    cluster.on('listening', (w) => {
      if (listened.has(w)) return;
      listened.add(w);
      if (w === first) for (let i = 1; i < workers; i++) fork(true);
      if (++started === workers) logger.info('cluster started: every worker listens', { workers });
    });
    const stop = (signal: NodeJS.Signals, code: number) => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      for (const w of alive()) w.process.kill(signal);
      if (alive().length === 0) resolve(exitCode);
    };
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) {
        if (alive().length === 0) resolve(exitCode);
        return;
      }
      if (worker === first && !listened.has(worker)) {
        // the first worker could not start: its own log line says why, and the others would fail alike
        logger.error('the first worker could not start; stopping the cluster', { code });
        return stop('SIGTERM', 1);
      }
      logger.warn('worker exited; starting another', { pid: worker.process.pid, code, signal });
      const wait = Math.max(0, nextFork - Date.now());
      nextFork = Date.now() + wait + 1000;
      setTimeout(() => !stopping && fork(true), wait);
    });
    process.on('SIGTERM', () => {
      logger.info('shutting down the cluster', { signal: 'SIGTERM' });
      stop('SIGTERM', 0);
    });
    process.on('SIGINT', () => {
      logger.info('shutting down the cluster', { signal: 'SIGINT' });
      stop('SIGINT', 0);
    });
  });
}
