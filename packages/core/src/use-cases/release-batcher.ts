import type { ReleaseOptions, TaskQueue } from '../ports/task-queue.port';

/**
 * Gathers the lease releases of concurrent worker steps into one releaseMany() write (when the store has
 * it): with thousands of active tasks, most steps are a poll whose only write is this release. Each caller
 * still learns whether its own lease was held. Flushes at `maxBatch` items or after `windowMs`.
 */
export class ReleaseBatcher {
  private pending: Array<{ id: string; opts: ReleaseOptions; done(held: boolean): void; fail(e: unknown): void }> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly tasks: TaskQueue & Required<Pick<TaskQueue, 'releaseMany'>>,
    private readonly owner: string,
    private readonly maxBatch = 200,
    private readonly windowMs = 5,
  ) {}

  release(id: string, opts: ReleaseOptions): Promise<boolean> {
    return new Promise<boolean>((done, fail) => {
      this.pending.push({ id, opts, done, fail });
      if (this.pending.length >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    // One task id appears once per write: a second release of the same id goes in its own write.
    const seen = new Set<string>();
    const first = batch.filter((b) => !seen.has(b.id) && seen.add(b.id));
    const rest = batch.filter((b) => !first.includes(b));
    this.tasks
      .releaseMany(
        this.owner,
        first.map(({ id, opts }) => ({ id, opts })),
      )
      .then(
        (held) => first.forEach((b) => b.done(held.has(b.id))),
        (e: unknown) => first.forEach((b) => b.fail(e)),
      );
    for (const b of rest) this.release(b.id, b.opts).then(b.done, b.fail);
  }
}
