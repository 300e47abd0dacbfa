/** How the batch is read: many ids in one call; ids the answer lacks are read one by one. */
export interface TaskReader<T> {
  readMany(ids: string[]): Promise<Map<string, T>>;
  readOne(id: string, signal?: AbortSignal): Promise<T>;
}

interface Waiter<T> {
  resolve(v: T): void;
  reject(e: unknown): void;
}

/**
 * Coalesces concurrent status reads into list calls of up to `maxBatch` ids: the worker polls tasks one
 * by one, the upstream sees one request per batch. A failed list call fails its whole batch (a 429 then
 * pauses the provider once, not per task).
 */
export class BatchedTaskReads<T> {
  private pending = new Map<string, Array<Waiter<T>>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly reader: TaskReader<T>,
    private readonly maxBatch = 100,
    private readonly windowMs = 5,
  ) {}

  read(id: string, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter: Waiter<T> = { resolve, reject };
      const list = this.pending.get(id) ?? [];
      list.push(waiter);
      this.pending.set(id, list);
      signal?.addEventListener(
        'abort',
        () => {
          const l = this.pending.get(id);
          const i = l?.indexOf(waiter) ?? -1;
          if (l && i >= 0) l.splice(i, 1);
          if (l && !l.length) this.pending.delete(id);
          reject(signal.reason);
        },
        { once: true },
      );
      if (this.pending.size >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.pending.size) {
      const batch = [...this.pending.entries()].slice(0, this.maxBatch);
      for (const [id] of batch) this.pending.delete(id);
      void this.run(new Map(batch));
    }
  }

  private async run(batch: Map<string, Array<Waiter<T>>>): Promise<void> {
    const settle = (id: string, fn: (w: Waiter<T>) => void) => batch.get(id)?.forEach(fn);
    let found: Map<string, T>;
    try {
      found = await this.reader.readMany([...batch.keys()]);
    } catch (e) {
      for (const id of batch.keys()) settle(id, (w) => w.reject(e));
      return;
    }
    await Promise.all(
      [...batch.keys()].map(async (id) => {
        const hit = found.get(id);
        if (hit !== undefined) return settle(id, (w) => w.resolve(hit));
        try {
          const one = await this.reader.readOne(id);
          settle(id, (w) => w.resolve(one));
        } catch (e) {
          settle(id, (w) => w.reject(e));
        }
      }),
    );
  }
}
