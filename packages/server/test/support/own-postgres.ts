import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** Whether this machine can run a PostgreSQL cluster of a test's own (initdb and pg_ctl present). */
export const ownPostgresAvailable = existsSync(path.join(BIN, 'initdb')) && existsSync(path.join(BIN, 'pg_ctl'));

export interface OwnPostgres {
  url: string;
  /** stops the server (fast shutdown: open connections are cut), waiting until it is down */
  stop(): void;
  start(): void;
  cleanup(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * A PostgreSQL cluster of the test's own, in a temp dir on a free loopback port, so the test may stop and start it
 * (never the shared one). initdb refuses to run as root: as root, the cluster's commands run as `postgres`.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'own-pg-'));
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      }
    : undefined;
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const run = (bin: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : path.join(BIN, bin), asRoot ? ['-u', 'postgres', '--', path.join(BIN, bin), ...args] : args, {
      stdio: 'pipe',
      cwd: dir,
    });
  const port = await freePort();
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-N', '-E', 'UTF8']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = () => void run('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const stop = () => void run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    cleanup() {
      try {
        stop();
      } catch {
        // already down
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
