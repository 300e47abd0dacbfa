import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The lock file's name inside DATA_DIR; it holds the pid of the process that has the embedded store open. */
export const LOCK_FILE = 'gateway.lock';

/** Thrown when another live process has the embedded store of this directory open. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`The data directory ${dir} is in use by process ${pid} (lock file ${path.join(dir, LOCK_FILE)}); only one process may open it.`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  release(): void;
}

/** The pid recorded in DATA_DIR's lock file when that process is still alive, else null (no lock, or a stale one). */
export function dataDirHolder(dir: string): number | null {
  const pid = readPid(path.join(dir, LOCK_FILE));
  return pid !== null && isAlive(pid) ? pid : null;
}

/**
 * PGlite has no lock of its own: two processes on one directory both write and corrupt it. The lock file is
 * written aside and hard-linked into place (atomic, fails when it exists), so two starting processes cannot both win
 * and nobody ever reads a half-written pid; a lock whose pid is dead (a crash, SIGKILL) is stale and taken over.
 */
export function acquireDataDirLock(dir: string): DataDirLock {
  const abs = path.resolve(dir);
  mkdirSync(abs, { recursive: true, mode: 0o700 });
  const file = path.join(abs, LOCK_FILE);
  const draft = `${file}.${process.pid}.${Date.now()}`;
  writeFileSync(draft, String(process.pid), { mode: 0o600 });
  try {
    return takeLock(abs, file, draft);
  } finally {
    unlinkSync(draft);
  }
}

function takeLock(abs: string, file: string, draft: string): DataDirLock {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      linkSync(draft, file);
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          if (readPid(file) === process.pid) unlinkSync(file);
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = readPid(file);
    // Our own pid counts as a holder too: a second open in one process is a second writer all the same.
    if (pid !== null && isAlive(pid)) throw new DataDirLockedError(abs, pid);
    // Stale: its process is gone (crash, SIGKILL). Remove it and try again.
    try {
      unlinkSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  throw new Error(`Could not take the lock file ${file}.`);
}

function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
