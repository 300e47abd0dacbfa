/**
 * The embedded database's own thread (docs/adr/0004): PGlite runs here, so its WASM work never holds up the gateway's
 * event loop. pglite-thread-client.ts starts it and sends it queries; they run strictly in arrival order, as on one
 * session (knex sends BEGIN, the statements and COMMIT as separate queries).
 */
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { EmbeddedPlace, FromThread, ThreadError, ToThread } from './pglite-thread.protocol';
import { PGLITE_CONF } from './pglite-conf';

const port = parentPort!;
// PostgreSQL's WASM compiled by Liftoff alone, never optimised: the optimised copies of its hot functions cost the
// idle gateway ~45 MB (~65 MB after load) for ~10 % more of this thread's CPU per usage row (bench/results/memory.md).
// V8's flags are the process's: the default is back once PGlite is compiled, for any WASM the event loop compiles.
v8.setFlagsFromString('--liftoff-only');
const { dir, image } = workerData as EmbeddedPlace;
// one options object: PGlite ignores its second argument when the first (the directory) is undefined, as in memory
const pglite = new PGlite({ dataDir: dir, postgresqlconf: PGLITE_CONF, loadDataDir: image ? new Blob([readFileSync(image)]) : undefined });
const compiled = pglite.waitReady.finally(() => v8.setFlagsFromString('--no-liftoff-only'));
const subscriptions = new Map<number, () => Promise<void>>();

let queue: Promise<unknown> = compiled.then(
  () => {
    // what opening left in this thread's heap (the file system image PGlite unpacks) goes now, not at some later GC
    v8.setFlagsFromString('--expose-gc');
    (vm.runInNewContext('gc') as () => void)();
    post({ type: 'ready' });
  },
  (e: unknown) => post({ type: 'ready', error: describe(e) }),
);

port.on('message', (m: ToThread) => {
  queue = queue
    .then(() => run(m))
    .then(
      (result) => answer(m.id, result),
      (e: unknown) => post({ type: 'answer', id: m.id, error: describe(e) }),
    );
});

async function run(m: ToThread): Promise<unknown> {
  switch (m.type) {
    case 'query':
      return pglite.query(m.sql, m.params, m.options as never);
    case 'listen':
      subscriptions.set(m.id, await pglite.listen(m.channel, (payload) => post({ type: 'notify', subscription: m.id, payload })));
      return undefined;
    case 'unlisten': {
      const stop = subscriptions.get(m.subscription);
      subscriptions.delete(m.subscription);
      return stop?.();
    }
    case 'close':
      return pglite.close();
  }
}

/** A result that cannot be cloned (no type PGlite returns today) becomes that query's error, not the thread's end. */
function answer(id: number, result: unknown): void {
  try {
    post({ type: 'answer', id, result });
  } catch (e) {
    post({ type: 'answer', id, error: describe(e) });
  }
}

function post(m: FromThread): void {
  port.postMessage(m);
}

/** An Error crosses a thread as name, message and stack only: the database's fields are copied by hand. */
function describe(e: unknown): ThreadError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e), fields: {} };
  const fields: Record<string, unknown> = {};
  // the plain values only (code, detail, constraint, table, position, ...): the failed query's parameters stay here
  for (const [k, v] of Object.entries(e)) if (/^(string|number|boolean|bigint|undefined)$/.test(typeof v)) fields[k] = v;
  return { name: e.name, message: e.message, stack: e.stack, fields };
}
