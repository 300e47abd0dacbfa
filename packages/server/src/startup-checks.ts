import { DataDirLockedError } from '@gateway/store-postgres';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config';

/** A start-up problem an operator fixes in the environment: logged as one line naming the cause, no stack. */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

/** Media work needs DATA_DIR; a write that fails here would fail every image and video later. */
export function probeWritable(dir: string): string | null {
  const probe = path.join(dir, `.write-probe-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
    return null;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  }
}

/** host:port/database of a PostgreSQL URL: enough to find it, never its password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** What can be checked before anything opens: the variables' form and DATA_DIR. */
export function checkStartupEnv(env: { databaseUrl?: string; dataDir: string }): void {
  if (env.databaseUrl) {
    let ok = false;
    try {
      ok = /^postgres(ql)?:$/.test(new URL(env.databaseUrl).protocol);
    } catch {
      ok = false;
    }
    if (!ok)
      throw new StartupError(
        'DATABASE_URL is not a PostgreSQL URL: expected postgres://user:password@host:5432/database (unset it for the embedded store).',
        'database_url_invalid',
      );
  }
  const failure = probeWritable(path.resolve(env.dataDir));
  if (failure)
    throw new StartupError(
      `DATA_DIR ${path.resolve(env.dataDir)} is not writable (${failure}): images, videos and the embedded store live there.`,
      'data_dir_not_writable',
    );
}

/** The database could not be opened: a reachability or credentials problem, named without the password. */
export function databaseStartupError(url: string, e: unknown): StartupError {
  const err = e as NodeJS.ErrnoException;
  const why = err.code && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err.message;
  const unreachable = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH'].includes(err.code ?? '');
  if (unreachable) return new StartupError(`PostgreSQL at ${describeDatabaseUrl(url)} cannot be reached (${why}).`, 'database_unreachable');
  return new StartupError(`PostgreSQL at ${describeDatabaseUrl(url)} refused to start the gateway (${why}).`, 'database_error');
}

/**
 * Without a config file the gateway runs the simulator's demo account: fine on a laptop, a surprise in production.
 * NODE_ENV=production refuses it unless ALLOW_DEMO_IN_PRODUCTION=true says it is meant.
 */
export function checkProductionDemo(env: { configPath?: string; refuseDemo?: boolean }): void {
  if (env.configPath || !env.refuseDemo) return;
  throw new StartupError(
    'NODE_ENV=production without GATEWAY_CONFIG would serve the simulator demo account: set GATEWAY_CONFIG (or ALLOW_DEMO_IN_PRODUCTION=true).',
    'demo_in_production',
  );
}

/** The line a failed start writes: the cause and its message, never a stack. */
export function startupFailure(e: unknown): { message: string; cause: string } {
  if (e instanceof StartupError) return { message: e.message, cause: e.reason };
  if (e instanceof ConfigError) return { message: e.message, cause: 'config_invalid' };
  if (e instanceof DataDirLockedError) return { message: e.message, cause: 'data_dir_locked' };
  return { message: `Gateway failed to start: ${e instanceof Error ? e.message : String(e)}`, cause: 'unexpected' };
}
