import type { Response } from 'express';
import { abortRequest } from './request-abort';

/**
 * Server-sent events with backpressure: write() resolves once the socket drained, so a slow
 * reader slows the producer instead of growing memory. `closed` tells the producer to stop.
 */
let openStreams = 0;

/** Streams currently open, for the active-streams gauge. */
export function openStreamCount(): number {
  return openStreams;
}

/**
 * Put on `res.locals.streamAdmission` by the composition root (e.g. a concurrent-streams limit). It runs once:
 * before the upstream is called (admitStream), or at the latest before the stream's first byte. True admits the
 * stream; false means it has answered the request itself (an error in the caller's format), and the writer then
 * reports itself closed.
 */
export type StreamAdmission = () => Promise<boolean>;

/**
 * Runs the request's stream admission once and remembers the answer. Routers call it before they call the upstream,
 * so a refused stream costs the upstream nothing; SseWriter calls it again before the first byte (then a no-op).
 * False: the refusal has been answered in the caller's format, and the caller stops.
 */
export function admitStream(res: Response): Promise<boolean> {
  const admit = res.locals.streamAdmission;
  if (!admit) return Promise.resolve(true);
  res.locals.streamAdmitted ??= admit();
  return res.locals.streamAdmitted;
}

export class SseWriter {
  private closedByClient = false;
  private refused = false;
  private opening: Promise<boolean> | undefined;
  private isOpen = false;

  /** The upstream work stops through the request's own signal (request-abort.ts), not one of the writer's. */
  constructor(private readonly res: Response) {
    res.on('close', () => {
      if (!res.writableFinished && !this.refused) this.closedByClient = true;
    });
  }

  get closed(): boolean {
    return this.refused || this.closedByClient || this.res.destroyed;
  }

  /**
   * One SSE message; `event` omitted gives a bare `data:` message. Returns a promise only when the caller must wait
   * (the stream is opening, or the socket is full until it drains): the usual part costs no promise at all.
   */
  send(data: unknown, event?: string): Promise<void> | undefined {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    return this.write(event ? `event: ${event}\ndata: ${payload}\n\n` : `data: ${payload}\n\n`);
  }

  write(chunk: string): Promise<void> | undefined {
    if (this.closed) return undefined;
    if (!this.isOpen) return this.open().then((ok) => (ok && !this.closed ? this.put(chunk) : undefined));
    return this.put(chunk);
  }

  private put(chunk: string): Promise<void> | undefined {
    if (this.res.write(chunk)) return undefined;
    return new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  end(): void {
    if (this.res.writableEnded) return;
    // A stream that never wrote still answers as an (empty) event stream.
    if (!this.opening && !this.res.headersSent && !this.res.destroyed) this.commit();
    this.res.end();
  }

  /** Admission (if any), then the 200 and the event-stream headers; once per stream. */
  private open(): Promise<boolean> {
    this.opening ??= (async () => {
      if (!(await admitStream(this.res))) {
        // The refusal was answered in the caller's format; the producer sees `closed` and stops its upstream.
        this.refused = true;
        abortRequest(this.res);
        return false;
      }
      if (this.res.destroyed) return false;
      this.commit();
      this.isOpen = true;
      return true;
    })();
    return this.opening;
  }

  private commit(): void {
    const res = this.res;
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    openStreams++;
    res.once('close', () => openStreams--);
  }
}
