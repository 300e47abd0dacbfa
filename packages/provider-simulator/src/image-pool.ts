import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PictureJob, PictureResult } from './image-pixels';

interface Reply {
  id: number;
  result?: PictureResult;
  refusal?: { code: string; message: string; param: string };
  failure?: string;
}

type Pending = { resolve: (r: PictureResult) => void; reject: (e: unknown) => void };

/** The worker's source beside this file: TypeScript under tsx and jest (registered in the thread), else compiled JS. */
function spawn(): Worker {
  const file = path.join(__dirname, `image-worker${path.extname(__filename)}`);
  if (file.endsWith('.ts')) {
    const tsx = require.resolve('tsx/cjs');
    return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(file)});`, { eval: true });
  }
  return new Worker(file);
}

/**
 * Picture work off the event loop: a few worker threads (at most two, fewer on one core), started on first use,
 * taking jobs in turn. Idle workers do not keep the process alive; close() ends them.
 */
export class ImagePool {
  private readonly workers: Array<{ worker: Worker; pending: Map<number, Pending> }> = [];
  private next = 0;
  private ids = 0;
  private draining = false;

  constructor(private readonly size = Math.max(1, Math.min(2, availableParallelism() - 1))) {}

  run(job: PictureJob, onRefusal: (r: NonNullable<Reply['refusal']>) => unknown): Promise<PictureResult> {
    const slot = this.slot();
    const id = ++this.ids;
    return new Promise<PictureResult>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.ref();
      slot.worker.postMessage({ id, job });
    }).catch((e: unknown) => {
      throw (e as { refusal?: Reply['refusal'] }).refusal ? onRefusal((e as { refusal: NonNullable<Reply['refusal']> }).refusal) : e;
    });
  }

  private slot() {
    if (this.workers.length < this.size) {
      const pending = new Map<number, Pending>();
      const worker = spawn();
      const slot = { worker, pending };
      worker.on('message', (r: Reply) => {
        const p = pending.get(r.id);
        pending.delete(r.id);
        if (pending.size === 0) {
          worker.unref();
          if (this.draining) void this.close();
        }
        if (!p) return;
        if (r.result) p.resolve(r.result);
        else if (r.refusal) p.reject({ refusal: r.refusal });
        else p.reject(new Error(`image worker: ${r.failure}`));
      });
      worker.on('error', (e) => {
        for (const p of pending.values()) p.reject(e);
        pending.clear();
        this.workers.splice(this.workers.indexOf(slot), 1);
      });
      worker.unref();
      this.workers.push(slot);
      return slot;
    }
    return this.workers[this.next++ % this.workers.length]!; // size >= 1, so the pool is full here
  }

  /** Closes once no picture is in progress (now, if none is). */
  drain(): void {
    this.draining = true;
    if (this.workers.every((w) => w.pending.size === 0)) void this.close();
  }

  async close(): Promise<void> {
    const all = this.workers.splice(0);
    await Promise.all(all.map((w) => w.worker.terminate()));
  }
}
