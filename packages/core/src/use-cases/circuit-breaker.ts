/**
 * A circuit breaker for one deployment. Pure: time comes from the injected clock, outcomes from the
 * caller. Closed → open after `consecutiveFailures` failures in a row, or when at least `minimumCalls`
 * of the last `windowSize` outcomes hold a failure ratio of `failureRatio` or more. Open refuses calls
 * for `coolDownMs`, then lets one probe through (half-open): its success closes the circuit, its
 * failure opens it again.
 */
export interface CircuitBreakerOptions {
  consecutiveFailures: number;
  failureRatio: number;
  windowSize: number;
  minimumCalls: number;
  coolDownMs: number;
}

export const DEFAULT_BREAKER_OPTIONS: Readonly<CircuitBreakerOptions> = Object.freeze({
  consecutiveFailures: 5,
  failureRatio: 0.5,
  windowSize: 20,
  minimumCalls: 10,
  coolDownMs: 30_000,
});

export type CircuitState = 'closed' | 'open' | 'half-open';

/** Handed out by acquire(); the outcome of the call is reported with it. */
export interface CircuitPermit {
  readonly probe: boolean;
}

export class CircuitBreaker {
  private current: CircuitState = 'closed';
  private consecutive = 0;
  private outcomes: boolean[] = [];
  private openedAt = 0;
  private probeStartedAt: number | null = null;
  private readonly opts: CircuitBreakerOptions;

  constructor(
    options: Partial<CircuitBreakerOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.opts = { ...DEFAULT_BREAKER_OPTIONS, ...options };
  }

  get state(): CircuitState {
    if (this.current === 'open' && this.now() - this.openedAt >= this.opts.coolDownMs) return 'half-open';
    return this.current;
  }

  /** A permit when a call may go through now, else null. Half-open admits one probe at a time. */
  acquire(): CircuitPermit | null {
    const s = this.state;
    if (s === 'closed') return { probe: false };
    if (s === 'open') return null;
    // A probe that never reported (a leaked stream) must not wedge the circuit: after a cool-down, probe again.
    if (this.probeStartedAt !== null && this.now() - this.probeStartedAt < this.opts.coolDownMs) return null;
    this.current = 'half-open';
    this.probeStartedAt = this.now();
    return { probe: true };
  }

  onSuccess(permit: CircuitPermit): void {
    if (permit.probe) {
      this.reset();
      return;
    }
    if (this.current !== 'closed') return; // a call from before the circuit opened
    this.consecutive = 0;
    this.record(false);
  }

  onFailure(permit: CircuitPermit): void {
    if (permit.probe) {
      this.open();
      return;
    }
    if (this.current !== 'closed') return;
    this.consecutive++;
    this.record(true);
    const failures = this.outcomes.filter(Boolean).length;
    const ratioTripped = this.outcomes.length >= this.opts.minimumCalls && failures / this.outcomes.length >= this.opts.failureRatio;
    if (this.consecutive >= this.opts.consecutiveFailures || ratioTripped) this.open();
  }

  /** The call ended with no verdict on the upstream (the client went away). */
  onNeutral(permit: CircuitPermit): void {
    if (permit.probe) this.probeStartedAt = null;
  }

  private record(failed: boolean): void {
    this.outcomes.push(failed);
    if (this.outcomes.length > this.opts.windowSize) this.outcomes.shift();
  }

  private open(): void {
    this.current = 'open';
    this.openedAt = this.now();
    this.probeStartedAt = null;
    this.consecutive = 0;
    this.outcomes = [];
  }

  private reset(): void {
    this.current = 'closed';
    this.probeStartedAt = null;
    this.consecutive = 0;
    this.outcomes = [];
  }
}
