import cluster from 'node:cluster';
import { removeLocalAdminCredential, writeLocalAdminCredential } from '@gateway/cli';
import { bootstrapConfigKeys, bootstrapDemoKey } from './bootstrap';
import { checkClusterEnv, runPrimary } from './cluster';
import { createGateway, type Gateway } from './gateway';
import { envFromProcess, loggingFromEnv } from './gateway-env';
import { createAnnouncer, createLogger, routeConsoleToLogger } from '@gateway/observability';
import { keepFilesPrivate } from './private-files';
import { checkProductionDemo, startupFailure } from './startup-checks';

/**
 * The embedded store has one writer, this process, so the CLI cannot open it while we run: it gets a loopback
 * admin address and a token through an owner-only file in DATA_DIR instead (docs/admin.md).
 */
async function openLocalAdmin(gw: Gateway): Promise<void> {
  const server = await gw.listen(0, '127.0.0.1');
  const addr = server.address();
  if (typeof addr !== 'object' || !addr) throw new Error('the loopback admin listener has no address');
  writeLocalAdminCredential(gw.env.dataDir, { url: `http://127.0.0.1:${addr.port}`, token: gw.localAdminToken, pid: process.pid });
}

const logging = loggingFromEnv(process.env);
const logger = createLogger(logging.level, { format: logging.format });
// the address and the demo key are shown whatever LOG_LEVEL says
const announce = createAnnouncer(logging.level, { format: logging.format });
routeConsoleToLogger(logger);

async function main(): Promise<void> {
  const env = envFromProcess(process.env);
  checkProductionDemo(env);
  keepFilesPrivate(env.dataDir);
  const workers = env.workers ?? 1;
  if (workers > 1 && cluster.isPrimary) {
    checkClusterEnv(env, workers);
    process.exit(await runPrimary(workers, logger));
  }
  const gw = await createGateway(env, { logger });
  // in a cluster the first worker bootstraps; the others start once it listens and find what it made
  if (!env.clusterFollower) await bootstrapConfigKeys(gw.stores, gw.config);
  if (!env.configPath && !env.clusterFollower) {
    const key = await bootstrapDemoKey(gw.stores, gw.config, env.demoKey);
    if (key) announce.info(`Demo API key (shown once; only its hash is stored): ${key}`);
    else announce.info('Demo account exists; its key was printed on the first start (set GATEWAY_DEMO_KEY to fix one).');
  }
  // listen before the worker starts: a start that cannot serve must not leave a worker running
  const server = await gw.listen().catch(async (e) => {
    await gw.close();
    throw e;
  });
  await gw.startBackground();
  const embedded = gw.db.kind === 'pglite';
  if (embedded) await openLocalAdmin(gw);
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : env.port;
  const url = `http://${env.host === '0.0.0.0' ? 'localhost' : env.host}:${port}`;
  announce.info(`Gateway listening on ${url} (store: ${gw.db.kind})`, {
    port,
    host: env.host,
    store: gw.db.kind,
    config: gw.config.source,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    gw.logger.info('shutting down', { signal });
    if (embedded) removeLocalAdminCredential(env.dataDir);
    await gw.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  const { message, cause } = startupFailure(e);
  logger.error(message, { cause });
  // exit once the line is out: winston writes asynchronously
  logger.once('finish', () => process.exit(1));
  logger.end();
});
