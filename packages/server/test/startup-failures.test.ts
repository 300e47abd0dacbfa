import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGateway } from '../src/gateway';
import { envFromProcess } from '../src/gateway-env';
import { createLogger } from '@gateway/observability';
import { checkProductionDemo, startupFailure } from '../src/startup-checks';
import { closedPort } from './support/tcp-proxy';

/**
 * Each start-up check's cause and message, through the calls main.ts makes in its order (the environment, the
 * production check, the gateway), in this process. What only a process shows (exit code 1, one JSON line, no stack)
 * is process/startup-errors.test.ts, once.
 */
async function startupCause(vars: NodeJS.ProcessEnv): Promise<{ message: string; cause: string } | undefined> {
  try {
    const env = envFromProcess({ PORT: '0', HOST: '127.0.0.1', ...vars });
    checkProductionDemo(env);
    const gw = await createGateway(env, { logger: createLogger('error') });
    await gw.close();
    return undefined;
  } catch (e) {
    return startupFailure(e);
  }
}

describe('start-up failures name their cause', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-startup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a DATA_DIR that cannot be written', async () => {
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const failure = await startupCause({ DATA_DIR: path.join(file, 'data') });
    expect(failure).toMatchObject({ cause: 'data_dir_not_writable' });
    expect(failure!.message).toContain(path.join(file, 'data'));
  });

  it('a DATABASE_URL that is not a PostgreSQL URL', async () => {
    expect(await startupCause({ DATA_DIR: dir, DATABASE_URL: 'mysql://root:pw@127.0.0.1/db' })).toMatchObject({
      cause: 'database_url_invalid',
    });
  });

  it('a DATABASE_URL that cannot be reached, named without its password', async () => {
    const port = await closedPort();
    const failure = await startupCause({ DATA_DIR: dir, DATABASE_URL: `postgres://gw:hunter2-secret@127.0.0.1:${port}/gateway` });
    expect(failure).toMatchObject({ cause: 'database_unreachable' });
    expect(failure!.message).toContain(`127.0.0.1:${port}/gateway`);
    expect(failure!.message).not.toContain('hunter2-secret');
  });

  it('a GATEWAY_SECRET too short to seal anything', async () => {
    const failure = await startupCause({ DATA_DIR: dir, GATEWAY_SECRET: 'tiny-s3cr' });
    expect(failure).toMatchObject({ cause: 'gateway_secret_too_short' });
    expect(failure!.message).not.toContain('tiny-s3cr');
  });

  it('NODE_ENV=production refuses the demo account unless ALLOW_DEMO_IN_PRODUCTION=true', async () => {
    expect(await startupCause({ DATA_DIR: dir, NODE_ENV: 'production' })).toMatchObject({ cause: 'demo_in_production' });
  });

  it.each([
    [
      'a wrong contract version',
      "'2.0.0'",
      {},
      /providers\.0\.module: module "\.\/acme\.mjs" of provider "acme": written for adapter contract 2\.0\.0/,
    ],
    [
      'options that fail its own schema',
      "'1.0.0'",
      { baseUlr: 'x' },
      /providers\.0\.options: module "\.\/acme\.mjs" of provider "acme": must have required/,
    ],
  ])('an adapter module refused for %s is named in the one line', async (_why, version, options, why) => {
    const home = mkdtempSync(path.join(dir, 'module-'));
    writeFileSync(
      path.join(home, 'acme.mjs'),
      `export default { contractVersion: ${version}, optionsSchema: { type: 'object', required: ['baseUrl'] }, create: () => ({ close() {}, drain() {} }) };`,
    );
    const config = {
      providers: [{ id: 'acme', module: './acme.mjs', options }],
      models: [{ id: 'acme-chat', kind: 'text', provider: 'acme' }],
      groups: [{ name: 'default', models: ['*'] }],
    };
    writeFileSync(path.join(home, 'gateway.json'), JSON.stringify(config));
    const failure = await startupCause({ DATA_DIR: path.join(home, 'data'), GATEWAY_CONFIG: path.join(home, 'gateway.json') });
    expect(failure).toMatchObject({ cause: 'config_invalid' });
    expect(failure!.message).toMatch(why);
    expect(failure!.message).not.toContain('\n');
  });

  it('an unknown RATE_LIMIT_ON_REDIS_ERROR', async () => {
    expect(await startupCause({ DATA_DIR: dir, RATE_LIMIT_ON_REDIS_ERROR: 'maybe' })).toMatchObject({ cause: 'rate_limit_policy_invalid' });
  });
});
