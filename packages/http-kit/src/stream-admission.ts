import type { RequestHandler } from 'express';
import type { StreamSlots } from '@gateway/core';
import { sendError } from './error-middleware';
import type { ErrorRenderer } from './error-shape';
import type { StreamAdmission } from './sse';

/**
 * The hook for streaming requests: every request gets a StreamAdmission on res.locals, which SseWriter calls just
 * before a stream's first byte. Only requests that really stream take a slot, whatever the format decides
 * streaming by (a body field or a path verb); a refusal is answered in the format of the path.
 */
export function streamAdmission(slots: StreamSlots, render: (path: string) => ErrorRenderer): RequestHandler {
  return (req, res, next) => {
    const admit: StreamAdmission = async () => {
      const principal = res.locals.principal;
      if (!principal) return true;
      try {
        const release = await slots.acquire(principal);
        if (res.closed) release();
        else res.once('close', release);
        return true;
      } catch (e) {
        sendError(res, e, render(req.path));
        return false;
      }
    };
    res.locals.streamAdmission = admit;
    next();
  };
}
