import { OutageLog } from '@gateway/core';
import type { Logger } from '../logger';

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
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
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
export function workerLoop(round: () => Promise<unknown>, intervalMs: number, logger: Logger, options: WorkerLoopOptions = {}): WorkerLoop {
  const { what = 'video worker rounds', wakeGapMs = 0, timers = realTimers } = options;
  let timer: unknown;
  let dueAt = Infinity;
  let current: Promise<void> | undefined;
  let running = false;
  let woken = false;
  let lastStart = -Infinity;
  let started = false;
  let stopped = false;
  const outage = new OutageLog((level, message, fields) => logger.log(level, message, fields), what);

  const schedule = (ms: number) => {
    if (stopped) return;
    const at = timers.now() + ms;
    if (timer !== undefined && at >= dueAt) return; // an earlier round is already due
    if (timer !== undefined) timers.clearTimeout(timer);
    dueAt = at;
    timer = timers.setTimeout(run, ms);
  };
  const run = () => {
    timer = undefined;
    dueAt = Infinity;
    running = true;
    woken = false;
    lastStart = timers.now();
    current = round()
      .then(
        () => outage.succeeded(),
        (e) => outage.failed(e, { intervalMs }),
      )
      .finally(() => {
        running = false;
        if (woken) schedule(Math.max(0, lastStart + wakeGapMs - timers.now()));
        else schedule(intervalMs);
      });
  };
  return {
    start(first) {
      if (started || stopped) return;
      started = true;
      running = true;
      current = Promise.resolve(first?.())
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => {
          running = false;
          schedule(woken ? 0 : intervalMs);
        });
    },
    wake() {
      if (stopped) return;
      if (running || !started) {
        woken = true;
        return;
      }
      const wait = lastStart + wakeGapMs - timers.now();
      if (wait > 0) return schedule(wait);
      if (timer !== undefined) timers.clearTimeout(timer);
      run();
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      await current;
    },
  };
}
