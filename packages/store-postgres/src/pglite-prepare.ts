/**
 * Run as a child process by openDatabase on a fresh DATA_DIR: PGlite's initdb and the migrations, then exit, so the
 * native memory they grow leaves with this process instead of staying in the gateway's (docs/adr/0003).
 */
import { prepareEmbeddedStore } from './db';

const [dir, schema] = process.argv.slice(2);
(dir ? prepareEmbeddedStore(dir, schema || undefined) : Promise.reject(new Error('pglite-prepare: no data directory given'))).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(e instanceof Error ? e.message : String(e));
    process.exit(1);
  },
);
