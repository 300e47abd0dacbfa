import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '@gateway/store-postgres';
import { runCli } from '../src/cli';
import { envFromProcess } from '../src/gateway';
import { seedEmbeddedStore } from './support/gateway-process';
import { startTestGateway } from './support/test-gateway';

/**
 * The CLI in-process, on an embedded store of its own per test: no test depends on another's accounts or on the
 * order they run in, and each names its time budget (opening PGlite takes seconds on a loaded machine).
 */
const BUDGET_MS = 120_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function cliOn(dataDir: string, extraEnv: Record<string, string> = {}) {
  const env = envFromProcess({ DATA_DIR: dataDir, ...extraEnv });
  return async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}

function freshCli() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-cli-'));
  dirs.push(dataDir);
  // migrated, as after initdb, and holding nothing a gateway imports
  seedEmbeddedStore({ DATA_DIR: dataDir });
  return { dataDir, run: cliOn(dataDir) };
}

describe('admin CLI', () => {
  it(
    'creates an account and a key, lists and revokes it, against the same store',
    async () => {
      const { run } = freshCli();
      expect((await run('accounts:create', 'acme', '--name', 'Acme Inc')).code).toBe(0);
      expect((await run('accounts:list')).out).toContain('acme\tAcme Inc');
      const created = await run('keys:create', '--account', 'acme', '--group', 'default');
      expect(created.code).toBe(0);
      const key = /sk-[A-Za-z0-9]+/.exec(created.out)![0];
      const id = /key (\S+) for acme/.exec(created.out)![1];
      const listed = await run('keys:list', '--account', 'acme');
      expect(listed.out).toContain(id);
      expect(listed.out).not.toContain(key);
      expect(listed.out).toContain('active');
      expect((await run('keys:revoke', id!)).code).toBe(0);
      expect((await run('keys:list')).out).toMatch(new RegExp(`${id}.*revoked`));
      expect((await run('keys:revoke', id!)).code).toBe(1);
    },
    BUDGET_MS,
  );

  it(
    'refuses catalogue commands on a store no gateway has seeded, and imports nothing',
    async () => {
      const { dataDir, run } = freshCli();
      expect(await run('models:set', 'cli-chat', '{"kind":"text","provider":"sim"}')).toMatchObject({
        code: 1,
        err: expect.stringContaining('start the gateway once'),
      });
      expect((await run('models:list')).code).toBe(1);
      const db = await openDatabase({ dataDir });
      try {
        expect(await db.knex('config_entries').count({ n: '*' }).first()).toEqual({ n: 0 });
        expect((await db.knex('config_version').first()).file_hash).toBeNull();
      } finally {
        await db.close();
      }
    },
    BUDGET_MS,
  );

  it(
    'creates a key with a name, expiry, allowlist and limits, shows them, changes them, and refuses bad values',
    async () => {
      const { run } = freshCli();
      expect((await run('accounts:create', 'acme')).code).toBe(0);
      const created = await run(
        ...['keys:create', '--account', 'acme', '--name', 'nightly', '--expires-at', '2031-01-01T00:00:00Z'],
        ...['--models', 'sim-chat', '--rpm', '30', '--streams', '2', '--budget', '25', '--budget-period', 'daily'],
      );
      expect(created.code).toBe(0);
      const id = /key (\S+) for acme/.exec(created.out)![1];
      const line = (await run('keys:list', '--account', 'acme')).out.split('\n').find((l) => l.startsWith(id!))!;
      expect(line.split('\t').slice(4)).toEqual([
        'active',
        'nightly',
        'expires 2031-01-01T00:00:00.000Z',
        'models sim-chat',
        'requests_per_minute=30,concurrent_streams=2',
        'budget 0/25 daily',
        'member', // a key made without --role has the least powers
      ]);
      const updated = await run('keys:update', id!, '--expires-at', 'never', '--models', 'all', '--rpm', 'default', '--tpm', '900');
      expect(updated.code).toBe(0);
      expect(updated.out.split('\t').slice(5)).toEqual([
        'nightly',
        'no expiry',
        'all group models',
        'tokens_per_minute=900,concurrent_streams=2',
        'budget 0/25 daily',
        'member',
      ]);
      expect((await run('quota:set', 'acme', '50', '--period', 'monthly')).out).toBe('acme\tlimit 50\tused 0\tmonthly');
      expect(await run('keys:update', id!, '--rpm', 'lots')).toMatchObject({
        code: 1,
        err: expect.stringContaining('limits.requests_per_minute'),
      });
      expect(await run('keys:create', '--account', 'acme', '--expires-at', 'soon')).toMatchObject({
        code: 1,
        err: expect.stringContaining('expires_at'),
      });
    },
    BUDGET_MS,
  );

  it(
    'manages models and groups like the admin API, validated against the whole config',
    async () => {
      const { dataDir, run } = freshCli();
      // a gateway's first start imports the catalogue the commands then change
      await (await startTestGateway({ listen: false, env: { dataDir, inMemoryDatabase: false } })).stop();
      expect((await run('accounts:create', 'acme')).code).toBe(0);
      expect((await run('models:set', 'cli-chat', '{"kind":"text","provider":"sim"}')).code).toBe(0);
      expect((await run('groups:set', 'cli', '{"models":["cli-chat"]}')).code).toBe(0);
      expect((await run('models:list')).out).toContain('"id":"cli-chat"');
      const created = await run('keys:create', '--account', 'acme', '--group', 'cli');
      expect(created.code).toBe(0);
      const broken = await run('models:delete', 'cli-chat');
      expect(broken).toMatchObject({ code: 1, err: expect.stringContaining('unknown model "cli-chat"') });
      expect(await run('models:set', 'x', 'not json')).toMatchObject({ code: 1 });
      expect((await run('groups:delete', 'cli')).code).toBe(0);
      expect((await run('models:delete', 'cli-chat')).code).toBe(0);
    },
    BUDGET_MS,
  );

  it(
    'refuses bad input with a message and exit 1',
    async () => {
      const { run } = freshCli();
      expect((await run('accounts:create', 'acme')).code).toBe(0);
      expect(await run('keys:create', '--account', 'ghost')).toMatchObject({ code: 1, err: expect.stringContaining('No account "ghost"') });
      expect(await run('keys:create', '--account', 'acme', '--group', 'gold')).toMatchObject({
        code: 1,
        err: expect.stringContaining('No group "gold"'),
      });
      expect(await run('frobnicate')).toMatchObject({ code: 1, err: expect.stringContaining('unknown command') });
      expect(await run('accounts:create', '../x')).toMatchObject({ code: 1 });
    },
    BUDGET_MS,
  );

  it(
    'account and key commands need neither the config file nor upstream secrets, and leave the catalogue as it was',
    async () => {
      const { dataDir, run } = freshCli();
      // a gateway seeded this store with a catalogue of its own, whose provider needs a secret the CLI does not have
      const file = {
        providers: [
          { id: 'house-oa', type: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'env:CLI_TEST_UPSTREAM_KEY' },
        ],
        models: [{ id: 'house-chat', kind: 'text' as const, provider: 'house-oa' }],
        groups: [{ name: 'house', models: ['house-chat'] }],
      };
      writeFileSync(path.join(dataDir, 'gateway.json'), JSON.stringify(file));
      const variables = { ...process.env, CLI_TEST_UPSTREAM_KEY: 'sk-upstream-secret-of-the-gateway' };
      const gw = await startTestGateway({ config: file, listen: false, env: { dataDir, inMemoryDatabase: false, variables } });
      await gw.stop();
      const catalogue = async () => {
        const db = await openDatabase({ dataDir });
        try {
          const version = (await db.knex('config_version').first()).version;
          return { version, entries: await db.knex('config_entries').orderBy(['kind', 'id']).select('kind', 'id', 'body', 'source') };
        } finally {
          await db.close();
        }
      };
      const before = await catalogue();

      expect((await run('accounts:create', 'acme')).code).toBe(0);
      expect(await run('keys:create', '--account', 'acme', '--group', 'house')).toMatchObject({ code: 0 });
      expect((await run('keys:list')).code).toBe(0);
      expect((await run('quota:set', 'acme', '10')).code).toBe(0);
      // with the config file named too, its unset secret does not matter to these commands
      const withFile = cliOn(dataDir, { GATEWAY_CONFIG: path.join(dataDir, 'gateway.json') });
      expect((await withFile('keys:list', '--account', 'acme')).code).toBe(0);

      expect(await catalogue()).toEqual(before);
    },
    BUDGET_MS,
  );
});
