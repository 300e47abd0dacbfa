import { chmodSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Sets every directory under `dir` (itself included) to 0700 and every file to 0600. PGlite's file system layer sets
 * its files' modes itself (0666, whatever the umask), so the embedded store is swept when it opens, every minute while
 * it runs, and when it closes (docs/security.md). Best effort: a file that vanished meanwhile is skipped.
 */
export function makeTreePrivate(dir: string): void {
  try {
    chmodSync(dir, 0o700);
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) makeTreePrivate(p);
      else if (e.isFile()) chmodSync(p, 0o600);
    }
  } catch {
    // gone meanwhile (PGlite removes temporary files), or not ours: the next sweep looks again
  }
}

/** Sweeps `dir` now and every `everyMs`; the returned stop sweeps a last time. */
export function keepTreePrivate(dir: string, everyMs = 60_000): () => void {
  makeTreePrivate(dir);
  const timer = setInterval(() => makeTreePrivate(dir), everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    makeTreePrivate(dir);
  };
}
