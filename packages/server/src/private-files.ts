import { chmodSync } from 'node:fs';

/**
 * The gateway's files are its user's alone, whatever umask it was started with: the embedded store (DATA_DIR/pglite,
 * written by PGlite, which takes no file mode), stored videos and images, secrets. A umask of 077 for the process
 * (and the children it starts, such as the embedded store's initdb) makes every new directory 0700 and file 0600;
 * an existing DATA_DIR is set to 0700, which also closes what an older release left readable inside it. A missing one
 * is created later, under that umask, by the start-up check that names an unwritable DATA_DIR.
 */
export function keepFilesPrivate(dataDir: string): void {
  process.umask(0o077);
  try {
    chmodSync(dataDir, 0o700);
  } catch {
    // not there yet (created 0700 under the umask), or another user's (a mounted volume): what the gateway creates
    // inside is still private
  }
}
