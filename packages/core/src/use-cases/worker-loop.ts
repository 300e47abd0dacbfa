import { OutageLog } from './outage-log';
import type { WorkerLog } from './video-task-driver';

/** Where the loop reports an outage: the server's logger fits. */
export interface LoopLogger {
  log: WorkerLog;
}

export interface WorkerLoop {
  /** runs `first` (start-up work), then the rounds; once, and not after stop */
  start(first?: () => Promise<unknown>): void;
  /** something changed that a round may act on: runs one without waiting out the interval */
  wake(): void;
  /** stops scheduling and waits for the round in flight */
  stop(): Promise<void>;
}

/** The timer functions the loop schedules with; tests pass their own, so no test waits on a real interval. */
export interface LoopTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: LoopTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    // a pending round never keeps the process alive
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface WorkerLoopOptions {
  /** named in the outage log lines */
  what?: string;
  /** the shortest time from one round's start to the next, however often woken (a burst of changes is one round) */
  wakeGapMs?: number;
  timers?: LoopTimers;
}

/**
 * Runs `round` every `intervalMs`, one at a time, and sooner when woken: a wake during a round runs one more round
 * after it, no sooner than `wakeGapMs` after the last one began. A failing round is mostly the store being down, and
 * the loop keeps trying every interval: the outage is logged once when it starts and once when rounds succeed again
 * (OutageLog).
 */
export function workerLoop(
  round: () => Promise<unknown>,
  intervalMs: number,
  logger: LoopLogger,
  options: WorkerLoopOptions = {},
): WorkerLoop {
  return new Loop(round, intervalMs, logger, options);
}

class Loop implements WorkerLoop {
  private readonly wakeGapMs: number;
  private readonly timers: LoopTimers;
  private readonly outage: OutageLog;
  private timer: unknown;
  private dueAt = Infinity;
  private current: Promise<void> | undefined;
  private running = false;
  private woken = false;
  private lastStart = -Infinity;
  private started = false;
  private stopped = false;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly intervalMs: number,
    logger: LoopLogger,
    options: WorkerLoopOptions,
  ) {
    const { what = 'video worker rounds', wakeGapMs = 0, timers = realTimers } = options;
    this.wakeGapMs = wakeGapMs;
    this.timers = timers;
    this.outage = new OutageLog((level, message, fields) => logger.log(level, message, fields), what);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    const at = this.timers.now() + ms;
    if (this.timer !== undefined && at >= this.dueAt) return; // an earlier round is already due
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.dueAt = at;
    this.timer = this.timers.setTimeout(() => this.run(), ms);
  }

  private run(): void {
    this.timer = undefined;
    this.dueAt = Infinity;
    this.running = true;
    this.woken = false;
    this.lastStart = this.timers.now();
    this.current = this.round()
      .then(
        () => this.outage.succeeded(),
        (e) => this.outage.failed(e, { intervalMs: this.intervalMs }),
      )
      .finally(() => {
        this.running = false;
        if (this.woken) this.schedule(Math.max(0, this.lastStart + this.wakeGapMs - this.timers.now()));
        else this.schedule(this.intervalMs);
      });
  }

  start(first?: () => Promise<unknown>): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.running = true;
    this.current = Promise.resolve(first?.())
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.running = false;
        this.schedule(this.woken ? 0 : this.intervalMs);
      });
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running || !this.started) {
      this.woken = true;
      return;
    }
    const wait = this.lastStart + this.wakeGapMs - this.timers.now();
    if (wait > 0) return this.schedule(wait);
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
  }
}
