import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../src/cli';
import { envFromProcess } from '../src/gateway';

describe('admin CLI', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-cli-'));
  const env = envFromProcess({ DATA_DIR: dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('creates an account and a key, lists and revokes it, against the same store', async () => {
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
    expect((await run('keys:revoke', id)).code).toBe(0);
    expect((await run('keys:list')).out).toMatch(new RegExp(`${id}.*revoked`));
    expect((await run('keys:revoke', id)).code).toBe(1);
  });

  it('manages models and groups like the admin API, validated against the whole config', async () => {
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
  });

  it('refuses bad input with a message and exit 1', async () => {
    expect(await run('keys:create', '--account', 'ghost')).toMatchObject({ code: 1, err: expect.stringContaining('No account "ghost"') });
    expect(await run('keys:create', '--account', 'acme', '--group', 'gold')).toMatchObject({
      code: 1,
      err: expect.stringContaining('No group "gold"'),
    });
    expect(await run('frobnicate')).toMatchObject({ code: 1, err: expect.stringContaining('unknown command') });
    expect(await run('accounts:create', '../x')).toMatchObject({ code: 1 });
  });
});
