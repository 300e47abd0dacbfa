import type { RequestHandler, Response } from 'express';
import { GatewayError } from '@gateway/core';

/**
 * One server's "shutting down" signal for its open streams. The composition root installs it (middleware()) and
 * fires it when the grace period ran out, before it cuts the connections: each open pump then ends its stream with
 * its format's error event instead of being cut silently.
 */
export class StreamShutdown {
  private readonly controller = new AbortController();
  private readonly open = new Set<Promise<void>>();

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  middleware(): RequestHandler {
    return (_req, res, next) => {
      res.locals.streamShutdown = this;
      next();
    };
  }

  /** A pump's lifetime, so fire() can wait until its error event was written. */
  track(done: Promise<void>): void {
    this.open.add(done);
    // the caller awaits `done` and handles its failure; this bookkeeping must not leave a second, unhandled rejection
    done.then(
      () => this.open.delete(done),
      () => this.open.delete(done),
    );
  }

  /** Tells every open stream to end; resolves once they did, or after `boundMs` (a stuck socket cannot hold it). */
  async fire(boundMs = 1000): Promise<void> {
    this.controller.abort();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)));
    await Promise.race([Promise.allSettled([...this.open]), bound]);
    clearTimeout(timer);
  }
}

export function streamShutdownOf(res: Response): StreamShutdown | undefined {
  return res.locals.streamShutdown;
}

export function shuttingDownError(): GatewayError {
  return new GatewayError('upstream_unavailable', 'The server is shutting down; retry the request.', {
    code: 'server_shutting_down',
  });
}

/**
 * One listener on the shutdown signal for a stream's whole life (an EventTarget listener per streamed part cost
 * more than the part's own encoding). `guard(work)` is `work`, or the shutting-down error as soon as the signal
 * fires; `release()` when the stream ends.
 */
export function shutdownGuard(signal: AbortSignal | undefined): { guard<T>(work: Promise<T>): Promise<T>; release(): void } {
  if (!signal) return { guard: (work) => work, release: () => undefined };
  let interrupt: ((e: unknown) => void) | undefined;
  // a flag of our own: the signal's `aborted` getter checks its receiver on every read, twice a part
  let stopped = signal.aborted;
  const stop = () => {
    stopped = true;
    interrupt?.(shuttingDownError());
  };
  signal.addEventListener('abort', stop, { once: true });
  return {
    guard<T>(work: Promise<T>): Promise<T> {
      if (stopped) return Promise.reject(shuttingDownError());
      return new Promise<T>((resolve, reject) => {
        interrupt = reject;
        work.then(resolve, reject);
      });
    },
    release: () => signal.removeEventListener('abort', stop),
  };
}
