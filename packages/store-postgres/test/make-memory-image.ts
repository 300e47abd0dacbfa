/**
 * Run as a child process by memory-image.ts: a store made the way a gateway's first start makes one
 * (prepareEmbeddedStore: initdb and every migration), written as PGlite's dump to the file named first.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { prepareEmbeddedStore } from '../src/db';
import { PGLITE_CONF } from '../src/pglite-conf';

async function makeImage(out: string): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-image-'));
  try {
    await prepareEmbeddedStore(dir, undefined);
    const pglite = new PGlite(dir, { postgresqlconf: PGLITE_CONF });
    await pglite.waitReady; // a dump asked for earlier never settles (PGlite 0.5)
    const dump = await pglite.dumpDataDir('none');
    await pglite.close();
    writeFileSync(out, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [out] = process.argv.slice(2);
(out ? makeImage(out) : Promise.reject(new Error('make-memory-image: no output file given'))).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
