import type { RequestHandler, Response } from 'express';
import { GatewayError } from '@gateway/core';

const SHUTDOWN = 'streamShutdown';

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
      res.locals[SHUTDOWN] = this;
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
  return res.locals[SHUTDOWN] as StreamShutdown | undefined;
}

export function shuttingDownError(): GatewayError {
  return new GatewayError('upstream_unavailable', 'The server is shutting down; retry the request.', {
    code: 'server_shutting_down',
  });
}

/** `work`, or a rejection with the shutting-down error as soon as the signal fires. */
export function untilShutdown<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(shuttingDownError());
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(shuttingDownError());
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
