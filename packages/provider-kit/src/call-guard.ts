import { GatewayError } from '@gateway/core';
import { clientClosed, mapTransportFailure } from './upstream-errors';
import type { TimeoutPhase, UpstreamTimeouts } from './upstream-timeouts';

/**
 * The clocks of one upstream call (first byte, idle, total) and its abort. Whatever runs out first, or the caller
 * going away, aborts the request through the abort the sender hands over (onAbort); translate() then says why, so a
 * timeout is never mistaken for a reset. No AbortController per call: the only listener is on the caller's signal.
 *
 * One timer per call, not one per clock (issue 40: no timer per request a shared one can replace): it is armed for
 * the earliest instant any clock could run out (the idle clock starts with the headers, so never sooner than
 * `idleMs` from now) and, when it fires, reads the clocks and is armed again for the next such instant. Neither the
 * headers nor a chunk re-arm it.
 */
export class CallGuard {
  private timedOut: TimeoutPhase | undefined;
  private timer: NodeJS.Timeout | undefined;
  private abortCall: ((reason: Error) => void) | undefined;
  private abortedWith: Error | undefined;
  private readonly startedAt = performance.now();
  /** the headers' arrival, then each body chunk's; undefined until the headers arrive */
  private lastActivity: number | undefined;
  private readonly onClientAbort = () => this.abort(new Error('the caller went away'));

  constructor(
    private readonly timeouts: Required<UpstreamTimeouts>,
    private readonly clientSignal?: AbortSignal,
  ) {
    this.arm(Math.min(timeouts.totalMs, timeouts.firstByteMs, timeouts.idleMs));
    if (clientSignal?.aborted) this.onClientAbort();
    else clientSignal?.addEventListener('abort', this.onClientAbort, { once: true });
  }

  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  /** The sender's way to end the request; called at once when the call is already aborted. */
  onAbort(abort: (reason: Error) => void): void {
    if (this.abortedWith) abort(this.abortedWith);
    else this.abortCall = abort;
  }

  private abort(reason: Error): void {
    this.abortedWith ??= reason;
    this.abortCall?.(reason);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(this.check, Math.max(0, ms));
    this.timer.unref();
  }

  private readonly check = (): void => {
    this.timer = undefined;
    const now = performance.now();
    const phase = this.expired(now);
    if (!phase) return this.arm(this.nextCheck(now) - now);
    this.timedOut ??= phase;
    this.abort(new Error(`${phase} timeout`));
  };

  /** The clock that has run out at `now`, if any. */
  private expired(now: number): TimeoutPhase | undefined {
    const t = this.timeouts;
    if (now - this.startedAt >= t.totalMs) return 'total';
    if (this.lastActivity === undefined) return now - this.startedAt >= t.firstByteMs ? 'first byte' : undefined;
    return now - this.lastActivity >= t.idleMs ? 'idle' : undefined;
  }

  /** The earliest instant after `now` at which a clock could run out. */
  private nextCheck(now: number): number {
    const t = this.timeouts;
    const waiting = this.lastActivity === undefined;
    const other = waiting ? Math.min(this.startedAt + t.firstByteMs, now + t.idleMs) : this.lastActivity! + t.idleMs;
    return Math.min(this.startedAt + t.totalMs, other);
  }

  /** Headers arrived: the first-byte clock stops, the idle clock starts. */
  headersReceived(): void {
    this.lastActivity = performance.now();
  }

  /** A body chunk arrived. */
  touch(): void {
    this.lastActivity = performance.now();
  }

  /** Any failure of this call → GatewayError, naming the timer if one fired. */
  translate(e: unknown): GatewayError {
    if (this.timedOut) return mapTransportFailure(e, this.timedOut);
    if (this.clientSignal?.aborted) return clientClosed();
    if (e instanceof GatewayError) return e;
    return mapTransportFailure(e);
  }

  finish(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.abortCall = undefined;
    this.clientSignal?.removeEventListener('abort', this.onClientAbort);
  }
}
