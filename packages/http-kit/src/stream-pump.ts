import type { Response } from 'express';
import { toGatewayError, type GatewayError } from '@gateway/core';
import { admitStream, SseWriter } from './sse';
import { abortRequest } from './request-abort';
import { shutdownGuard, shuttingDownError, streamShutdownOf } from './stream-shutdown';

/**
 * One server-sent event; `event` omitted gives a bare `data:` message. `raw` is event-stream text written as it is
 * (whole events relayed from an upstream of the client's format: core stream-forwarding.ts).
 */
export type SseMessage = { data: unknown; event?: string; raw?: undefined } | { raw: string };

/** What a wire format hands the pump: where the parts come from and how each becomes events in its format. */
export interface PumpedStream<P> {
  /** Starts the upstream work; called once the stream is admitted, so a refused stream costs the upstream nothing. */
  parts(): AsyncIterator<P>;
  /** Events sent before the first part (e.g. `message_start`). */
  start?(): Iterable<SseMessage>;
  encode(part: P): Iterable<SseMessage>;
  /** Events after the last part (e.g. `[DONE]`); a throw here is a mid-stream failure like any other. */
  finish?(): Iterable<SseMessage> | Promise<Iterable<SseMessage>>;
  /** A failure after the 200 was sent, in the format's own shape. */
  renderError(err: GatewayError): Iterable<SseMessage>;
}

/**
 * The streaming lifecycle, once for every format: admit the stream, pull the first part before committing to 200
 * (an upstream failure before any byte is still a plain HTTP error, thrown to the router's error middleware), then
 * send events with backpressure, render a later failure in the format's shape, and end. A client that leaves stops
 * the loop, and the request's own abort signal (request-abort.ts) has already stopped the upstream call.
 */
export async function pumpStream<P>(res: Response, stream: PumpedStream<P>): Promise<void> {
  if (!(await admitStream(res))) return;
  const shutdown = streamShutdownOf(res);
  const pumping = pump(res, stream, shutdown?.signal);
  shutdown?.track(pumping);
  await pumping;
}

/**
 * A server shutting down past its grace period interrupts the pump (shutdownGuard): the stream then ends with the
 * format's error event (code server_shutting_down) and the request's log line records that code.
 */
async function pump<P>(res: Response, stream: PumpedStream<P>, shutdown: AbortSignal | undefined): Promise<void> {
  const parts = stream.parts();
  const first = await parts.next();
  const sse = new SseWriter(res);
  const write = (m: SseMessage) => (m.raw === undefined ? sse.send(m.data, m.event) : sse.write(m.raw));
  /** The rest of a part's events once the socket drained (or the stream opened). */
  const sendRest = async (events: Iterator<SseMessage>, waiting: Promise<void>) => {
    await waiting;
    for (let e = events.next(); !e.done; e = events.next()) {
      const next = write(e.value);
      if (next) await next;
    }
  };
  /** A part's events; a promise only when one of them must wait: the usual part costs no promise at all. */
  const send = (messages: Iterable<SseMessage>): Promise<void> | undefined => {
    const events = messages[Symbol.iterator]();
    for (let e = events.next(); !e.done; e = events.next()) {
      const waiting = write(e.value);
      if (waiting) return sendRest(events, waiting);
    }
    return undefined;
  };
  const sent = (messages: Iterable<SseMessage>) => send(messages) ?? Promise.resolve();
  const { guard: guarded, release } = shutdownGuard(shutdown);
  let interrupted = false;
  try {
    await guarded(sent(stream.start?.() ?? []));
    for (let step = first; !step.done && !sse.closed; step = await guarded(parts.next())) {
      const waiting = send(stream.encode(step.value));
      if (waiting) await guarded(waiting);
    }
    if (!sse.closed && stream.finish) await guarded(Promise.resolve(stream.finish()).then(sent));
  } catch (e) {
    const err = toGatewayError(e);
    interrupted = shutdown?.aborted === true;
    if (interrupted) {
      res.locals.errorCode = err.code;
      // the use case records the stream as cut by our shutdown, not as left by its client
      abortRequest(res, shuttingDownError());
    }
    await sent(stream.renderError(err));
  } finally {
    release();
    // Interrupted by shutdown, the stream ends first: the upstream may still be waiting on its next part.
    if (interrupted) sse.end();
    // Ends an abandoned upstream (a no-op once it finished), so its usage is logged and its connection closed.
    await parts.return?.(undefined);
    sse.end();
  }
}
