import { bootstrapConfigKeys, bootstrapDemoKey } from './bootstrap';
import { createGateway, envFromProcess } from './gateway';
import { createAnnouncer, createLogger, routeConsoleToLogger } from './logger';
import { checkProductionDemo, startupFailure } from './startup-checks';

const logger = createLogger();
// the address and the demo key are shown whatever LOG_LEVEL says
const announce = createAnnouncer();
routeConsoleToLogger(logger);

async function main(): Promise<void> {
  const env = envFromProcess();
  checkProductionDemo(env);
  const gw = await createGateway(env, { logger });
  await bootstrapConfigKeys(gw.keys, gw.config);
  if (!env.configPath) {
    const key = await bootstrapDemoKey(gw.keys, env.demoKey);
    if (key) announce.info(`Demo API key (shown once; only its hash is stored): ${key}`);
    else announce.info('Demo account exists; its key was printed on the first start (set GATEWAY_DEMO_KEY to fix one).');
  }
  // listen before the worker starts: a start that cannot serve must not leave a worker running
  const server = await gw.listen().catch(async (e) => {
    await gw.close();
    throw e;
  });
  await gw.startBackground();
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
