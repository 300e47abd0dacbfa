import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/**
 * main.ts in a node process of its own, resolved once it prints its listening line. `node --import tsx`, not the
 * tsx CLI: the CLI is a parent process, so a SIGKILL would hit it and leave the gateway running.
 * `timeoutMs` is a safety net, not a bound on start-up time: just under the process lane's 240 s, so a gateway that
 * never gets up is killed and reported with its output before jest gives up on the test.
 * `launcher` runs node under another command (e.g. `unshare --pid …`); `proc` is then that command.
 */
export async function startGatewayProcess(
  env: Record<string, string>,
  timeoutMs = 220_000,
  entry: 'source' | 'built' = 'source',
  launcher: string[] = [],
): Promise<GatewayProcess> {
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

/** Runs the admin CLI (src/cli.ts) in a process of its own, as an operator would; resolves when it exits. */
export function runCliProcess(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
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
