/**
 * The deployment-selection policy for text, images and video: ascending priority, weighted random
 * order within a priority, a circuit breaker per deployment, failover on retryable errors.
 */
import type { Deployment, ModelCatalogue } from '../catalogue';
import type { UsageLog } from '../ports/usage-log.port';
import type { Billing } from './billing';
import { GatewayError, toGatewayError } from '../errors';
import type { AttemptAnswer, AttemptCall, RoutingObserver } from '../ports/routing-observer.port';
import { CircuitBreaker, type CircuitBreakerOptions, type CircuitPermit, type CircuitState } from './circuit-breaker';

export interface SelectionOptions {
  now?: () => number;
  /** [0, 1): picks among deployments of one priority by weight; injected by tests */
  random?: () => number;
  breaker?: Partial<CircuitBreakerOptions>;
  /** told of every upstream attempt and breaker transition (metrics, warn logs) */
  observer?: RoutingObserver;
}

/** What a use case that routes calls through the selection policy needs besides its provider lookup. */
export interface RoutedCallDeps extends SelectionOptions {
  catalogue: ModelCatalogue;
  usage: UsageLog;
  /** credit quotas: reserved or checked before the upstream call, settled after */
  billing?: Billing;
}

/** One try of one deployment, holding its breaker permit until the outcome is reported. */
export interface DeploymentAttempt<P> {
  deployment: Deployment;
  port: P;
  breaker: CircuitBreaker;
  permit: CircuitPermit;
  /** on the selection clock, for the observer's duration */
  startedAt: number;
  call?: AttemptCall;
}

/**
 * Deployments in the order to try them: ascending priority; within one priority a weighted random
 * order (each pick without replacement, chance proportional to weight).
 */
export function orderDeployments(deployments: Deployment[], random: () => number): Deployment[] {
  const byPriority = new Map<number, Deployment[]>();
  for (const d of deployments) byPriority.set(d.priority, [...(byPriority.get(d.priority) ?? []), d]);
  const out: Deployment[] = [];
  for (const priority of [...byPriority.keys()].sort((a, b) => a - b)) {
    const pool = [...byPriority.get(priority)!];
    while (pool.length) {
      const total = pool.reduce((s, d) => s + d.weight, 0);
      let r = random() * total;
      let i = 0;
      while (i < pool.length - 1 && r >= pool[i]!.weight) r -= pool[i++]!.weight;
      out.push(...pool.splice(i, 1));
    }
  }
  return out;
}

/**
 * Whether a failure says the upstream itself is unwell: 5xx, 429, 408, timeouts and connection errors.
 * Any other 4xx was caused by one request's content, so one tenant cannot open a circuit for everyone.
 */
export function isUpstreamFault(err: GatewayError): boolean {
  const s = err.upstreamStatus;
  if (s === undefined) return err.retryable;
  return s >= 500 || s === 429 || s === 408;
}

export class DeploymentSelector {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(private readonly opts: SelectionOptions = {}) {}

  /** The deployments that may be tried now, in order, each with a breaker permit; `call` is what the observer is told. */
  *attempts<P>(
    deployments: Deployment[],
    portOf: (provider: string) => P | undefined,
    call?: AttemptCall,
  ): Generator<DeploymentAttempt<P>> {
    for (const deployment of orderDeployments(deployments, this.opts.random ?? Math.random)) {
      const port = portOf(deployment.provider);
      if (!port) continue;
      const breaker = this.breaker(deployment);
      const permit = breaker.acquire();
      if (!permit) continue;
      yield { deployment, port, breaker, permit, startedAt: this.now(), call };
    }
  }

  /**
   * The deployment a task is bound to (video: chosen once at admission): the first in policy order
   * whose provider serves the kind and whose circuit is not open. No permit is held: the call comes later.
   */
  choose<P>(deployments: Deployment[], portOf: (provider: string) => P | undefined): { deployment: Deployment; port: P } | null {
    for (const deployment of orderDeployments(deployments, this.opts.random ?? Math.random)) {
      const port = portOf(deployment.provider);
      if (port && this.breaker(deployment).state !== 'open') return { deployment, port };
    }
    return null;
  }

  succeeded(a: DeploymentAttempt<unknown>, answer?: AttemptAnswer): void {
    this.verdict(a, 'success', { outcome: 'ok', answer });
  }

  /** The call ended with no verdict on the upstream (the client went away). */
  abandoned(a: DeploymentAttempt<unknown>): void {
    this.verdict(a, 'neutral', { outcome: 'cancelled' });
  }

  /** Reports a failed attempt to its breaker; true when the next deployment should be tried. */
  failed(a: DeploymentAttempt<unknown>, e: unknown, signal: AbortSignal): { error: GatewayError; failover: boolean } {
    const error = toGatewayError(e);
    const attempt = {
      outcome: signal.aborted ? 'cancelled' : (error.code ?? error.reason),
      upstreamStatus: error.upstreamStatus,
      upstreamMessage: error.upstreamMessage,
    };
    if (signal.aborted) this.verdict(a, 'neutral', attempt);
    else if (isUpstreamFault(error)) this.verdict(a, 'failure', attempt);
    // An answer caused by the request (say a 400) still shows the upstream is up.
    else this.verdict(a, 'success', attempt);
    return { error, failover: error.retryable && !signal.aborted };
  }

  /** Gives the breaker its verdict on one attempt and tells the observer about the attempt and any transition. */
  private verdict(
    a: DeploymentAttempt<unknown>,
    kind: 'success' | 'failure' | 'neutral',
    attempt: { outcome: string; upstreamStatus?: number; upstreamMessage?: string; answer?: AttemptAnswer },
  ): void {
    const before = a.breaker.state;
    if (kind === 'success') a.breaker.onSuccess(a.permit);
    else if (kind === 'failure') a.breaker.onFailure(a.permit);
    else a.breaker.onNeutral(a.permit);
    const observer = this.opts.observer;
    if (!observer) return;
    const where = { provider: a.deployment.provider, upstreamModel: a.deployment.upstreamModel };
    observer.attempt({ ...where, ...attempt, durationMs: this.now() - a.startedAt, call: a.call });
    const after = a.breaker.state;
    if (after !== before) observer.breakerChanged({ ...where, from: before, to: after });
  }

  /** Why no attempt was made (or none is left): no provider configured, or every circuit open. */
  exhausted(modelId: string, deployments: Deployment[], portOf: (provider: string) => unknown): GatewayError {
    if (!deployments.some((d) => portOf(d.provider))) {
      return new GatewayError('upstream_unavailable', `No upstream serves ${modelId}.`, { code: 'no_upstream' });
    }
    return new GatewayError('upstream_unavailable', `Every upstream of ${modelId} is temporarily unavailable; retry later.`, {
      code: 'all_upstreams_unavailable',
    });
  }

  circuitState(provider: string, upstreamModel: string): CircuitState {
    return this.breaker({ provider, upstreamModel }).state;
  }

  /** Every deployment's breaker seen so far (metrics). */
  circuitStates(): Array<{ provider: string; upstreamModel: string; state: CircuitState }> {
    return [...this.breakers].map(([key, b]) => {
      const [provider = '', upstreamModel = ''] = key.split('\u0000');
      return { provider, upstreamModel, state: b.state };
    });
  }

  private readonly now = (): number => (this.opts.now ?? Date.now)();

  private breaker(d: Pick<Deployment, 'provider' | 'upstreamModel'>): CircuitBreaker {
    const key = `${d.provider}\u0000${d.upstreamModel}`;
    let b = this.breakers.get(key);
    if (!b) {
      b = new CircuitBreaker(this.opts.breaker, this.now);
      this.breakers.set(key, b);
    }
    return b;
  }
}
