import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');

export interface GatewayProcess {
  proc: ChildProcess;
  url: string;
  /** everything it wrote to stdout and stderr so far */
  output(): string;
  /** sends the signal and resolves with the exit code (null when killed by a signal) once it is gone */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  /**
   * A safety net, not a bound on start-up time: just under the process lane's 240 s, so a gateway that never gets up
   * is killed and reported with its output before jest gives up on the test.
   */
  timeoutMs?: number;
  /** the TypeScript sources under tsx, or the bundle `npm start` runs */
  entry?: 'source' | 'built';
  /** runs node under another command (e.g. `unshare --pid …`); `proc` is then that command */
  launcher?: string[];
  /**
   * A new DATA_DIR's embedded store: copied from one made once (seeded, see seedEmbeddedStore), or made by the
   * gateway itself as on a real first start (fresh), for a test of that first start.
   */
  store?: 'seeded' | 'fresh';
}

/**
 * main.ts in a node process of its own, resolved once it prints its listening line. `node --import tsx`, not the
 * tsx CLI: the CLI is a parent process, so a SIGKILL would hit it and leave the gateway running.
 */
export async function startGatewayProcess(
  env: Record<string, string>,
  { timeoutMs = 220_000, entry = 'source', launcher = [], store = 'seeded' }: StartOptions = {},
): Promise<GatewayProcess> {
  if (store === 'seeded') seedEmbeddedStore(env);
  const args = entry === 'built' ? npmStartArgs() : ['--import', 'tsx', 'packages/server/src/main.ts'];
  const [command, ...commandArgs] = [...launcher, process.execPath, ...args];
  const proc = spawn(command!, commandArgs, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  // Never outlive the test process, whatever happens to it.
  const orphanGuard = () => proc.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => {
      process.removeListener('exit', orphanGuard);
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // a gateway that never got up must not outlive the test, holding its DATA_DIR
      proc.kill('SIGKILL');
      reject(new Error(`gateway did not start:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const m = /Gateway listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      proc.stdout!.off('data', check);
      resolve(m[1]!);
    };
    proc.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}:\n${out}`));
    });
  });
  return {
    proc,
    url,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/**
 * A first start on a new DATA_DIR spends most of its time in PGlite's initdb and the migrations (about 10 s on a
 * loaded 2-core machine); a copy of a store made once costs about 2 s. The template is made by the same child the
 * gateway runs (pglite-prepare.ts) and is named by what it is made from, so a new migration makes a new one. Nothing
 * when the gateway uses PostgreSQL or DATA_DIR already holds a store.
 */
export function seedEmbeddedStore(env: Record<string, string>): void {
  if (env.DATABASE_URL || !env.DATA_DIR) return;
  const target = path.resolve(ROOT, env.DATA_DIR, 'pglite');
  if (existsSync(target)) return;
  cpSync(embeddedStoreTemplate(env.DATABASE_SCHEMA ?? ''), target, { recursive: true });
}

function embeddedStoreTemplate(schema: string): string {
  const store = path.join(ROOT, 'packages/store-postgres');
  const hash = createHash('sha256').update(schema);
  const inputs = [
    ...readdirSync(path.join(store, 'src/migrations')).map((f) => `src/migrations/${f}`),
    'src/db.ts',
    'src/pglite-conf.ts',
    'src/pglite-prepare.ts',
    'package.json',
  ];
  for (const f of inputs.sort()) hash.update(f).update(readFileSync(path.join(store, f)));
  hash.update(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  const dir = path.join(os.tmpdir(), 'gw-test-stores', hash.digest('hex').slice(0, 16));
  if (existsSync(dir)) return dir;
  const made = `${dir}.${process.pid}`;
  mkdirSync(path.dirname(made), { recursive: true });
  execFileSync(process.execPath, ['--import', 'tsx', 'packages/store-postgres/src/pglite-prepare.ts', made, schema], { cwd: ROOT });
  try {
    renameSync(made, dir);
  } catch {
    rmSync(made, { recursive: true, force: true }); // another worker made it first
  }
  return dir;
}

/** Runs main.ts expecting it to fail at start-up; resolves with its exit code and output. */
export function runGatewayExpectingExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, output: out })));
}

/** node's arguments in `npm start` after its build step: the flags and the bundled entry. */
function npmStartArgs(): string[] {
  const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [cmd, ...args] = start
    .split('&&')
    .pop()!
    .trim()
    .replace(/^exec\s+/, '')
    .split(/\s+/);
  if (cmd !== 'node') throw new Error(`npm start no longer runs node last: ${start}`);
  return args;
}

/** What `npm start` runs: the server bundled into packages/server/dist (scripts/build-server.cjs). */
export function buildServer(): void {
  execFileSync(process.execPath, ['scripts/build-server.cjs'], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * Runs the admin CLI (src/cli.ts) in a process of its own, as an operator would; resolves when it exits. A new
 * DATA_DIR gets a seeded store, as startGatewayProcess gives one.
 */
export function runCliProcess(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  seedEmbeddedStore(env);
  const proc = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...cliBaseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, out, err })));
}

/** Runs `npx gateway …` as a user would (bin/gateway.js); `out` is stdout and stderr interleaved. */
export function runGatewayBin(args: string[]): Promise<{ code: number | null; out: string }> {
  const proc = spawn(process.execPath, [path.join(ROOT, 'bin', 'gateway.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, out })));
}

/** The test process's environment without the gateway's own settings, so each CLI run names only what it is given. */
function cliBaseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['GATEWAY_CONFIG', 'DATABASE_URL', 'DATABASE_SCHEMA', 'DATA_DIR', 'GATEWAY_ADMIN_KEY']) delete env[name];
  return env;
}
