import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const STORE = path.resolve(__dirname, '..');
const ROOT = path.resolve(STORE, '../..');

let image: Promise<string | undefined> | undefined;

/**
 * A dump of a migrated embedded store, for `openDatabase({ memoryImage })`: an in-memory store loaded from it skips
 * PGlite's initdb and the migrations (about 15 s on a loaded 2-core machine; the load about 4 s). Made once per
 * machine and migration set: the file is named by a hash of what makes the store (the migrations, db.ts, PGlite's
 * version), so a new migration makes a new one; delete `$TMPDIR/gw-test-stores` to reclaim old ones. Written under a
 * temporary name and renamed, so two jest workers or two runs making it at once each read a whole file. Undefined
 * (the store then starts the normal way) when it cannot be made; the reason goes to stderr.
 */
export function migratedMemoryImage(): Promise<string | undefined> {
  image ??= makeOnce().catch((e: unknown) => {
    process.stderr.write(`memory-image: starting in-memory stores without a dump: ${e instanceof Error ? e.message : String(e)}\n`);
    return undefined;
  });
  return image;
}

async function makeOnce(): Promise<string> {
  const file = path.join(os.tmpdir(), 'gw-test-stores', `memory-${inputsHash()}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  const made = `${file}.${process.pid}`;
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(STORE, 'test/make-memory-image.ts'), made], { cwd: ROOT });
    renameSync(made, file);
  } finally {
    rmSync(made, { force: true });
  }
  return file;
}

function inputsHash(): string {
  const hash = createHash('sha256');
  const inputs = [
    ...readdirSync(path.join(STORE, 'src/migrations')).map((f) => `src/migrations/${f}`),
    'src/db.ts',
    'src/pglite-conf.ts',
    'test/make-memory-image.ts',
    'package.json',
  ];
  for (const f of inputs.sort()) hash.update(f).update(readFileSync(path.join(STORE, f)));
  hash.update(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}
