import { OutageLog } from '@gateway/core';
import type { Logger } from '../logger';

export interface WorkerLoop {
  /** runs `first` (start-up work), then the rounds; once, and not after stop */
  start(first?: () => Promise<unknown>): void;
  /** stops scheduling and waits for the round in flight */
  stop(): Promise<void>;
}

/**
 * Runs `round` every `intervalMs`, one at a time. A failing round is mostly the store being down, and the loop keeps
 * trying every interval: the outage is logged once when it starts and once when rounds succeed again (OutageLog).
 */
export function workerLoop(round: () => Promise<unknown>, intervalMs: number, logger: Logger, what = 'video worker rounds'): WorkerLoop {
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let started = false;
  let stopped = false;
  const outage = new OutageLog((level, message, fields) => logger.log(level, message, fields), what);
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = round()
        .then(
          () => outage.succeeded(),
          (e) => outage.failed(e, { intervalMs }),
        )
        .finally(next);
    }, intervalMs);
    timer.unref();
  };
  return {
    start(first) {
      if (started || stopped) return;
      started = true;
      current = Promise.resolve(first?.())
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(next);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
