import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '@gateway/testkit';
import { seedEmbeddedStore } from '../support/gateway-process';
import { childPids } from '../support/process-tree';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '../../../..');

/**
 * A checkout with no bundle: its own package.json, tsconfig.json and build script, its own packages/server/dist,
 * and everything else (the sources, node_modules) linked to this one, so deleting or rebuilding its bundle does not
 * touch the bundle other tests run.
 */
function checkoutWithoutBundle(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-checkout-'));
  for (const f of ['package.json', 'tsconfig.json']) copyFileSync(path.join(ROOT, f), path.join(dir, f));
  mkdirSync(path.join(dir, 'scripts'));
  // copied, not linked: node runs a linked script from its real path, which would build into this checkout
  copyFileSync(path.join(ROOT, 'scripts/build-server.cjs'), path.join(dir, 'scripts/build-server.cjs'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  mkdirSync(path.join(dir, 'packages/server'), { recursive: true });
  for (const p of readdirSync(path.join(ROOT, 'packages')))
    if (p !== 'server') symlinkSync(path.join(ROOT, 'packages', p), path.join(dir, 'packages', p));
  for (const entry of readdirSync(path.join(ROOT, 'packages/server')))
    if (entry !== 'dist') symlinkSync(path.join(ROOT, 'packages/server', entry), path.join(dir, 'packages/server', entry));
  return dir;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface NpmStart {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function npmStart(cwd: string, dataDir: string): NpmStart {
  const proc = spawn('npm', ['start'], {
    cwd,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, output: () => out, exited };
}

describe('npm start from one checkout', () => {
  const checkout = checkoutWithoutBundle();
  const dataDirs = [0, 1, 2].map(() => mkdtempSync(path.join(os.tmpdir(), 'gw-npmstart-data-')));
  // what is under test is the build and the process tree, not a first start's store
  for (const d of dataDirs) seedEmbeddedStore({ DATA_DIR: d });
  const started: NpmStart[] = [];
  afterAll(() => {
    for (const s of started) if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
    for (const d of [checkout, ...dataDirs]) rmSync(d, { recursive: true, force: true });
  });

  it('three at once with no bundle all come up; SIGTERM to npm stops each gateway and frees its port', async () => {
    started.push(...dataDirs.map((d) => npmStart(checkout, d)));
    const urls = await Promise.all(
      started.map(async (s) => {
        let url = '';
        await eventually(() => {
          // a start that exits (the old failure: code 0, no log line) fails here with its output
          if (s.proc.exitCode !== null) throw new Error(`npm start exited with ${s.proc.exitCode}:\n${s.output()}`);
          url = /Gateway listening on (http:\/\/\S+)/.exec(s.output())?.[1] ?? '';
          return url !== '';
        }, 240_000);
        return url;
      }),
    );
    expect(new Set(urls).size).toBe(3);
    for (const url of urls) expect((await fetch(`${url}/healthz`)).status).toBe(200);

    // npm runs a shell that `exec`s node: the gateway is npm's own child, no shell in between to orphan it
    const gateways = started.map((s) => childPids(s.proc.pid!));
    for (const g of gateways) {
      expect(g).toHaveLength(1);
      expect(readFileSync(`/proc/${g[0]}/cmdline`, 'utf8')).toContain('dist/main.js');
    }

    for (const s of started) s.proc.kill('SIGTERM');
    await Promise.all(started.map((s) => s.exited));
    for (const [pid] of gateways) await eventually(() => !alive(pid!), 30_000);
    for (const url of urls) await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    for (const s of started) expect(s.output()).toMatch(/shutting down/);
  });

  it('a later start finds the bundle up to date and does not rewrite it', async () => {
    const main = path.join(checkout, 'packages/server/dist/main.js');
    const before = statSync(main).mtimeMs;
    const build = spawn(process.execPath, ['scripts/build-server.cjs', '--if-stale'], { cwd: checkout, stdio: 'ignore' });
    expect(await new Promise((resolve) => build.once('exit', resolve))).toBe(0);
    expect(statSync(main).mtimeMs).toBe(before);
    // no temporary file or lock left behind by the three concurrent builds
    expect(readdirSync(path.dirname(main)).filter((f) => f.endsWith('.tmp') || f === '.build.lock')).toEqual([]);
  });
});
