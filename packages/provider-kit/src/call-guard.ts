import { GatewayError } from '@gateway/core';
import { clientClosed, mapTransportFailure } from './upstream-errors';
import type { TimeoutPhase, UpstreamTimeouts } from './upstream-timeouts';

/**
 * The timers of one upstream call (first byte, idle, total) and its abort wiring. Whatever fires first
 * aborts the request; translate() then says why, so a timeout is never mistaken for a reset.
 */
export class CallGuard {
  readonly controller = new AbortController();
  private timedOut: TimeoutPhase | undefined;
  private readonly timers = new Map<TimeoutPhase, NodeJS.Timeout>();
  private onFire: (() => void) | undefined;
  /** last body activity; the idle timer checks it when it fires instead of being re-armed per chunk */
  private lastActivity = 0;
  private readonly onClientAbort = () => this.controller.abort();

  constructor(
    private readonly timeouts: Required<UpstreamTimeouts>,
    private readonly clientSignal?: AbortSignal,
    /** told once when the call ends (the transport counts calls in flight to drain its sockets) */
    private readonly onFinish?: () => void,
  ) {
    this.start('total', timeouts.totalMs);
    this.start('first byte', timeouts.firstByteMs);
    if (clientSignal?.aborted) this.controller.abort();
    else clientSignal?.addEventListener('abort', this.onClientAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private start(phase: TimeoutPhase, ms: number): void {
    this.clear(phase);
    const t = setTimeout(() => this.fire(phase), ms);
    t.unref();
    this.timers.set(phase, t);
  }

  private clear(phase: TimeoutPhase): void {
    const t = this.timers.get(phase);
    if (t) clearTimeout(t);
    this.timers.delete(phase);
  }

  private fire(phase: TimeoutPhase): void {
    if (phase === 'idle') {
      // Re-arming a timer on every chunk costs more than the chunk: check the clock once per idle period.
      const quiet = performance.now() - this.lastActivity;
      if (quiet < this.timeouts.idleMs) {
        const t = setTimeout(() => this.fire('idle'), this.timeouts.idleMs - quiet);
        t.unref();
        this.timers.set('idle', t);
        return;
      }
    }
    this.timedOut ??= phase;
    this.controller.abort();
    this.onFire?.();
  }

  /** Headers arrived: the first-byte clock stops, the idle clock starts. */
  headersReceived(onFire: () => void): void {
    this.clear('first byte');
    this.onFire = onFire;
    this.lastActivity = performance.now();
    this.start('idle', this.timeouts.idleMs);
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
    for (const phase of [...this.timers.keys()]) this.clear(phase);
    this.onFire = undefined;
    this.clientSignal?.removeEventListener('abort', this.onClientAbort);
    this.onFinish?.();
  }
}
