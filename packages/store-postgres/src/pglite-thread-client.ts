import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EmbeddedPlace, FromThread, ThreadError, ToThread } from './pglite-thread.protocol';

/** What knex-pglite and db.ts use of a PGlite: PGlite itself (in this thread) or PgliteThread (in its own). */
export interface EmbeddedSession {
  readonly waitReady: Promise<void>;
  query(sql: string, params?: unknown[], options?: unknown): Promise<unknown>;
  /** Resolves to the function that stops this subscription. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
type Outgoing = ToThread extends infer M ? (M extends ToThread ? Omit<M, 'id'> : never) : never;

/**
 * PGlite in a worker thread (pglite-thread.ts), seen from the event loop as the same four members knex-pglite and
 * db.ts use, so no store changes (docs/adr/0004). One message per call, answered in order; errors come back with the
 * database's fields (code, detail, constraint, ...). The thread holds the process open only while it owes an answer;
 * if it dies, every waiting and later call fails with the reason instead of hanging.
 */
export class PgliteThread implements EmbeddedSession {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private ids = 0;
  private starting = true;
  private ended?: Error;
  private closing?: Promise<void>;

  /** `spawnThread` is for tests that need a thread which misbehaves. */
  constructor(place: EmbeddedPlace, spawnThread: (place: EmbeddedPlace) => Worker = spawnPgliteThread) {
    this.worker = spawnThread(place);
    let ready!: { resolve: () => void; reject: (e: Error) => void };
    this.waitReady = new Promise<void>((resolve, reject) => (ready = { resolve, reject }));
    this.waitReady.catch(() => undefined); // knex awaits it on first use; an unawaited failure is not a crash
    this.worker.on('message', (m: FromThread) => {
      if (m.type === 'ready') {
        this.starting = false;
        this.holdOpen();
        if (m.error) ready.reject(rebuild(m.error));
        else ready.resolve();
      } else if (m.type === 'notify') this.listeners.get(m.subscription)?.(m.payload);
      else this.settle(m.id, m.error ? { error: rebuild(m.error) } : { result: m.result });
    });
    const end = (e: Error) => {
      this.ended ??= e;
      ready.reject(this.ended);
      for (const [id] of this.pending) this.settle(id, { error: this.ended });
    };
    this.worker.on('error', (e) => end(new Error(`the embedded database's thread failed: ${e.message}`, { cause: e })));
    this.worker.on('exit', (code) => end(new Error(`the embedded database's thread has ended (exit code ${code})`)));
  }

  query(sql: string, params?: unknown[], options?: unknown): Promise<unknown> {
    return this.send({ type: 'query', sql, params, options });
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const subscription = this.ids + 1; // the id send gives the listen message names the subscription in the thread
    this.listeners.set(subscription, onNotify);
    try {
      await this.send({ type: 'listen', channel });
    } catch (e) {
      this.listeners.delete(subscription);
      throw e;
    }
    return async () => {
      if (!this.listeners.delete(subscription)) return;
      await this.send({ type: 'unlisten', subscription });
    };
  }

  /** Closes PGlite in its thread, then ends the thread; later calls fail. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.ended) await this.send({ type: 'close' });
      } finally {
        this.ended ??= new Error("the embedded database's thread is closed");
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }

  private send(m: Outgoing): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const id = ++this.ids;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.holdOpen();
      try {
        this.worker.postMessage({ ...m, id } as ToThread);
      } catch (e) {
        this.settle(id, { error: e as Error }); // a parameter that cannot be cloned (a function, a symbol)
      }
    });
  }

  private settle(id: number, outcome: { result?: unknown; error?: Error }): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    this.holdOpen();
    if (outcome.error) p.reject(outcome.error);
    else p.resolve(outcome.result);
  }

  /** Referenced while an answer is owed (or the thread is starting), so an awaited query keeps node running; else not. */
  private holdOpen(): void {
    if (this.starting || this.pending.size > 0) this.worker.ref();
    else this.worker.unref();
  }
}

/**
 * The thread's source beside this file: TypeScript under tsx and jest (registered in the thread), else the bundle's JS.
 * A small young generation: the thread's garbage is one message per query, and V8's default semi-spaces left the
 * idle gateway ~20 MB larger (docs/adr/0004).
 */
export function spawnPgliteThread(place: EmbeddedPlace): Worker {
  const file = path.join(__dirname, `pglite-thread${path.extname(__filename)}`);
  const options = { workerData: place, resourceLimits: { maxYoungGenerationSizeMb: 4 } };
  if (!file.endsWith('.ts')) return new Worker(file, options);
  const tsx = require.resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(file)});`, { ...options, eval: true });
}

/** The database's error as the caller would have had it in this thread: same name, message and fields. */
function rebuild(t: ThreadError): Error {
  const e = Object.assign(new Error(t.message), t.fields);
  e.name = t.name;
  if (t.stack) e.stack = t.stack;
  return e;
}
