import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeWithService, eventually } from '@gateway/testkit';
import { openDatabase } from '@gateway/store-postgres';
import { CREDENTIAL_FILE } from '@gateway/cli';
import { runCliProcess, startGatewayProcess, type GatewayProcess } from '../support/gateway-process';

/**
 * The admin CLI against a running gateway, with real processes: what it writes is what the gateway uses.
 * Embedded store: through the gateway's loopback admin API. PostgreSQL: straight into the database.
 */
const chat = (url: string, key: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'house-chat', messages: [{ role: 'user', content: 'hello' }] }),
  });

const HOUSE_KEY = 'sk-house-client-key-0001';

/** A catalogue unlike the built-in one, so a CLI that wrote its own default over it would show. */
function houseConfig(dir: string): string {
  const file = path.join(dir, 'gateway.json');
  writeFileSync(
    file,
    JSON.stringify({
      providers: [{ id: 'house-sim', type: 'simulator' }],
      models: [{ id: 'house-chat', kind: 'text', provider: 'house-sim' }],
      groups: [{ name: 'house', models: ['house-chat'] }],
      keys: [{ key: HOUSE_KEY, account: 'house', group: 'house' }],
    }),
  );
  return file;
}

const keyIdOf = (listing: string, prefix: string) =>
  listing
    .split('\n')
    .find((l) => l.includes(`\t${prefix}…`))
    ?.split('\t')[0];

describe('CLI against a running gateway on the embedded store', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-cli-live-'));
  const env = { DATA_DIR: dir, GATEWAY_CONFIG: houseConfig(dir) };
  let gw: GatewayProcess | undefined;
  afterAll(async () => {
    await gw?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('revokes through the gateway at once, creates keys it serves, and the revocation survives a restart', async () => {
    gw = await startGatewayProcess(env);
    const credential = path.join(dir, CREDENTIAL_FILE);
    expect(statSync(credential).mode & 0o777).toBe(0o600);
    expect((await chat(gw.url, HOUSE_KEY)).status).toBe(200);

    // the CLI gets only DATA_DIR: neither the config file nor anything else
    const created = await runCliProcess(['keys:create', '--account', 'house', '--group', 'house'], { DATA_DIR: dir });
    expect(created).toMatchObject({ code: 0 });
    const newKey = /sk-[A-Za-z0-9]+/.exec(created.out)![0];
    expect((await chat(gw.url, newKey)).status).toBe(200);

    // a rename goes through the gateway's PATCH /admin/accounts/{id}
    expect(await runCliProcess(['accounts:update', 'house', '--name', 'House team'], { DATA_DIR: dir })).toMatchObject({
      code: 0,
      out: expect.stringContaining('account house (House team)'),
    });

    const listed = await runCliProcess(['keys:list', '--account', 'house'], { DATA_DIR: dir });
    const id = keyIdOf(listed.out, HOUSE_KEY.slice(0, 7));
    expect(id).toMatch(/^key_[a-z0-9]{24}$/);
    expect(await runCliProcess(['keys:revoke', id!], { DATA_DIR: dir })).toMatchObject({ code: 0 });
    // the gateway revoked it itself, so its own cache forgot the key: no TTL to wait for
    expect((await chat(gw.url, HOUSE_KEY)).status).toBe(401);
    expect((await runCliProcess(['keys:revoke', id!], { DATA_DIR: dir })).err).toContain('No active key');

    expect(await gw.stop()).toBe(0);
    expect(existsSync(credential)).toBe(false);
    gw = await startGatewayProcess(env);
    expect((await chat(gw.url, HOUSE_KEY)).status).toBe(401);
    expect((await chat(gw.url, newKey)).status).toBe(200);
  }, 180_000);
});

describeWithService('TEST_DATABASE_URL', 'CLI against running gateways on PostgreSQL', (pgUrl) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-cli-pg-'));
  const schema = `cli_${randomBytes(6).toString('hex')}`;
  const store = { DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema };
  const env = { ...store, DATA_DIR: dir, GATEWAY_CONFIG: houseConfig(dir), KEY_CACHE_TTL_MS: '500' };
  const gateways: GatewayProcess[] = [];
  afterAll(async () => {
    for (const g of gateways) await g.stop();
    const db = await openDatabase({ databaseUrl: pgUrl });
    await db.knex.raw(`drop schema if exists "${schema}" cascade`);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keys:revoke makes the key fail with 401 on every instance within KEY_CACHE_TTL_MS, across restarts', async () => {
    gateways.push(...(await Promise.all([startGatewayProcess(env), startGatewayProcess(env)])));
    for (const g of gateways) expect((await chat(g.url, HOUSE_KEY)).status).toBe(200);

    const listed = await runCliProcess(['keys:list'], store);
    const id = keyIdOf(listed.out, HOUSE_KEY.slice(0, 7));
    expect(await runCliProcess(['keys:revoke', id!], store)).toMatchObject({ code: 0 });
    // each instance's cached lookup lives at most KEY_CACHE_TTL_MS (the bound itself: key-cache.test.ts, clock injected)
    for (const g of gateways) await eventually(async () => expect((await chat(g.url, HOUSE_KEY)).status).toBe(401), 10_000);

    await gateways.pop()!.stop();
    gateways.push(await startGatewayProcess(env));
    expect((await chat(gateways[1]!.url, HOUSE_KEY)).status).toBe(401);
  }, 240_000);
});
