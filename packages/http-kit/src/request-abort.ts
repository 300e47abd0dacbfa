import type { Response } from 'express';

function controllerOf(res: Response): AbortController {
  let abort = res.locals.requestAbort;
  if (!abort) {
    const created = new AbortController();
    // A response that closes before it finished was left by its client: the upstream work stops with it.
    res.on('close', () => {
      if (!res.writableFinished) created.abort();
    });
    // Asked for the first time after the client already left (e.g. during a slow body decode).
    if (res.closed && !res.writableFinished) created.abort();
    res.locals.requestAbort = created;
    abort = created;
  }
  return abort;
}

/**
 * The request's one abort signal, for every call it makes upstream: it fires when the client leaves before the
 * answer is complete, or when the stream is refused (abortRequest). Created on first use, shared after.
 */
export function requestSignal(res: Response): AbortSignal {
  return controllerOf(res).signal;
}

/**
 * Stops the request's upstream work (e.g. its stream was refused after the upstream call started). `reason` tells
 * the use case why (the shutting-down error: its usage row says `shutdown`, not client-closed or upstream failure).
 */
export function abortRequest(res: Response, reason?: unknown): void {
  controllerOf(res).abort(reason);
}

/** The client went away before the answer was sent: nothing can reach it, and the outcome is 499, not an error. */
export function clientLeft(res: Response): boolean {
  return !res.headersSent && !res.writableFinished && (res.destroyed || requestSignal(res).aborted);
}
