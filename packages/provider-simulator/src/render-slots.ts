/**
 * At most `max` renders at once; the rest wait in arrival order. ffmpeg is CPU-bound, so however many tasks the
 * worker polls concurrently, the simulator encodes no more videos at a time than the machine has cores.
 */
export class RenderSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    while (this.active >= this.max) await this.wait(signal);
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  /** Resolves when a slot frees; rejects (and leaves the queue) when the signal aborts first. */
  private wait(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(wake);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waiting.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
