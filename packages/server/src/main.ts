import { bootstrapConfigKeys, bootstrapDemoKey } from './bootstrap';
import { ConfigError } from './config';
import { createGateway, envFromProcess } from './gateway';

async function main(): Promise<void> {
  const env = envFromProcess();
  const gw = await createGateway(env);
  await bootstrapConfigKeys(gw.keys, gw.config);
  if (!env.configPath) {
    const key = await bootstrapDemoKey(gw.keys, env.demoKey);
    if (key) console.log(`Demo API key (shown once; only its hash is stored): ${key}`);
    else console.log('Demo account exists; its key was printed on the first start (set GATEWAY_DEMO_KEY to fix one).');
  }
  await gw.startBackground();
  const server = await gw.listen();
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : env.port;
  gw.logger.info('gateway listening', { port, host: env.host, store: gw.db.kind, config: gw.config.source });
  console.log(`Gateway listening on http://${env.host === '0.0.0.0' ? 'localhost' : env.host}:${port} (store: ${gw.db.kind})`);

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
  if (e instanceof ConfigError) console.error(e.message);
  else console.error('Gateway failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
