import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runGatewayExpectingExit } from '../support/gateway-process';
import { closedPort } from '../support/tcp-proxy';

jest.setTimeout(120000);

/** Every line the process wrote, parsed: one that is not a JSON object fails the test. */
function jsonLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });
}

function failure(output: string) {
  const lines = jsonLines(output);
  expect(output).not.toMatch(/\n\s+at /); // no stack trace
  const errors = lines.filter((l) => l.level === 'error');
  expect(errors).toHaveLength(1);
  return errors[0];
}

describe('start-up failures: exit code 1 and one JSON line naming the cause', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-startup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a port in use stops start-up naming the port; every line is JSON, the first start says what it prepares', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const { code, output } = await runGatewayExpectingExit({ PORT: String(port), DATA_DIR: path.join(dir, 'port') });
      expect(code).toBe(1);
      const line = failure(output);
      expect(line).toMatchObject({ cause: 'port_in_use' });
      expect(line!.message).toContain(String(port));
      expect(jsonLines(output).some((l) => String(l.message).includes('creating the embedded store'))).toBe(true);
      expect(output).not.toContain('Gateway listening');
    } finally {
      holder.close();
    }
  });

  it('a DATA_DIR that cannot be written', async () => {
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const { code, output } = await runGatewayExpectingExit({ DATA_DIR: path.join(file, 'data') });
    expect(code).toBe(1);
    const line = failure(output);
    expect(line).toMatchObject({ cause: 'data_dir_not_writable' });
    expect(line!.message).toContain(path.join(file, 'data'));
  });

  it('a DATABASE_URL that is not a PostgreSQL URL', async () => {
    const { code, output } = await runGatewayExpectingExit({ DATA_DIR: dir, DATABASE_URL: 'mysql://root:pw@127.0.0.1/db' });
    expect(code).toBe(1);
    expect(failure(output)).toMatchObject({ cause: 'database_url_invalid' });
  });

  it('a DATABASE_URL that cannot be reached, named without its password', async () => {
    const port = await closedPort();
    const { code, output } = await runGatewayExpectingExit({
      DATA_DIR: dir,
      DATABASE_URL: `postgres://gw:hunter2-secret@127.0.0.1:${port}/gateway`,
    });
    expect(code).toBe(1);
    const line = failure(output);
    expect(line).toMatchObject({ cause: 'database_unreachable' });
    expect(line!.message).toContain(`127.0.0.1:${port}/gateway`);
    expect(output).not.toContain('hunter2-secret');
  });

  it('a GATEWAY_SECRET too short to seal anything', async () => {
    const { code, output } = await runGatewayExpectingExit({ DATA_DIR: dir, GATEWAY_SECRET: 'short' });
    expect(code).toBe(1);
    const line = failure(output);
    expect(line).toMatchObject({ cause: 'gateway_secret_too_short' });
    expect(output).not.toContain('"short"');
  });

  it('NODE_ENV=production refuses the demo account unless ALLOW_DEMO_IN_PRODUCTION=true', async () => {
    const { code, output } = await runGatewayExpectingExit({ DATA_DIR: dir, NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(failure(output)).toMatchObject({ cause: 'demo_in_production' });
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
    const { code, output } = await runGatewayExpectingExit({
      DATA_DIR: path.join(home, 'data'),
      GATEWAY_CONFIG: path.join(home, 'gateway.json'),
    });
    expect(code).toBe(1);
    const line = failure(output);
    expect(line).toMatchObject({ cause: 'config_invalid' });
    expect(line!.message).toMatch(why);
  });

  it('an unknown RATE_LIMIT_ON_REDIS_ERROR', async () => {
    const { code, output } = await runGatewayExpectingExit({ DATA_DIR: dir, RATE_LIMIT_ON_REDIS_ERROR: 'maybe' });
    expect(code).toBe(1);
    expect(failure(output)).toMatchObject({ cause: 'rate_limit_policy_invalid' });
  });
});
