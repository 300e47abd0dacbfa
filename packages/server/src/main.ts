import { DataDirLockedError } from '@gateway/store-postgres';
import { removeLocalAdminCredential, writeLocalAdminCredential } from './admin/local-credential';
import { bootstrapConfigKeys, bootstrapDemoKey } from './bootstrap';
import { ConfigError } from './config';
import { createGateway, envFromProcess, type Gateway } from './gateway';

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
  const embedded = gw.db.kind === 'pglite';
  if (embedded) await openLocalAdmin(gw);
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : env.port;
  gw.logger.info('gateway listening', { port, host: env.host, store: gw.db.kind, config: gw.config.source });
  console.log(`Gateway listening on http://${env.host === '0.0.0.0' ? 'localhost' : env.host}:${port} (store: ${gw.db.kind})`);

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
  if (e instanceof ConfigError || e instanceof DataDirLockedError) console.error(e.message);
  else console.error('Gateway failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
