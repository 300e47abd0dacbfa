import type { Principal } from '../auth';
import type { Deployment, ModelCatalogue, ModelSpec } from '../catalogue';
import { GatewayError, toGatewayError } from '../errors';
import type { RoutingObserver, TextModelPort, UsageLog } from '../ports';
import type { TextRequest, TextResult, TextStreamPart, Usage } from '../text';
import { estimateInputTokens } from '../token-estimate';
import { CircuitBreaker, type CircuitBreakerOptions, type CircuitPermit, type CircuitState } from './circuit-breaker';
import { textCost } from '../billing';
import type { Billing } from './billing';
import { resolveModel } from './resolve-model';

export interface ProviderLookup {
  text(providerId: string): TextModelPort | undefined;
}

export interface TextCallMeta {
  format: string;
  requestId: string;
  signal: AbortSignal;
}

export interface TextGenerationDeps {
  catalogue: ModelCatalogue;
  providers: ProviderLookup;
  usage: UsageLog;
  now?: () => number;
  /** [0, 1): picks among deployments of one priority by weight; injected by tests */
  random?: () => number;
  breaker?: Partial<CircuitBreakerOptions>;
  /** credit quotas: checked before the upstream call, settled after */
  billing?: Billing;
  /** told of every upstream attempt and breaker transition (metrics, warn logs) */
  observer?: RoutingObserver;
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
      while (i < pool.length - 1 && r >= pool[i].weight) r -= pool[i++].weight;
      out.push(...pool.splice(i, 1));
    }
  }
  return out;
}

interface Attempt {
  deployment: Deployment;
  port: TextModelPort;
  breaker: CircuitBreaker;
  permit: CircuitPermit;
}

/** What the usage row says about routing. */
interface Routing {
  attempts: number;
  provider: string | null;
  /** the provider's request id of the call that answered (or failed last) */
  upstreamRequestId?: string;
}

/**
 * Text generation: resolve the model for the caller, try its deployments in order (failing over on
 * retryable errors until the first byte is committed), keep a circuit breaker per deployment, log usage.
 */
export class TextGeneration {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(private readonly deps: TextGenerationDeps) {}

  /** Checks the model before anything else, so wire adapters can fail fast. */
  resolve(principal: Principal, modelId: unknown): ModelSpec {
    return resolveModel(this.deps.catalogue, principal, modelId, 'text');
  }

  /** A deployment's breaker state, for health pages and tests. */
  circuitState(provider: string, upstreamModel: string): CircuitState {
    return this.breaker({ provider, upstreamModel }).state;
  }

  /** Every deployment's breaker seen so far (metrics). */
  circuitStates(): Array<{ provider: string; upstreamModel: string; state: CircuitState }> {
    return [...this.breakers].map(([key, b]) => {
      const [provider, upstreamModel] = key.split('\u0000');
      return { provider, upstreamModel, state: b.state };
    });
  }

  async generate(principal: Principal, request: TextRequest, meta: TextCallMeta): Promise<TextResult> {
    const now = this.deps.now ?? Date.now;
    const started = now();
    const model = this.resolve(principal, request.model);
    const routing: Routing = { attempts: 0, provider: null };
    try {
      await this.deps.billing?.precheck(principal);
      let lastError: GatewayError | undefined;
      for (const a of this.attempts(model, routing)) {
        try {
          const result = await a.port.generate(this.upstreamRequest(request, meta, a.deployment), meta);
          this.verdict(a, 'success', { outcome: 'ok' });
          routing.upstreamRequestId = result.upstreamRequestId;
          const credits = await this.settleCredits(principal, model, result.usage, meta);
          this.log(principal, meta, model.id, routing, 'ok', 200, result.usage, now() - started, null, result.warnings, undefined, credits);
          return { ...result, model: model.id };
        } catch (e) {
          lastError = this.settle(a, e, meta);
          routing.upstreamRequestId = lastError.upstreamRequestId;
          if (!lastError.retryable || meta.signal.aborted) throw lastError;
        }
      }
      throw lastError ?? this.noDeployment(model, routing);
    } catch (e) {
      const err = toGatewayError(e);
      this.log(principal, meta, model.id, routing, 'error', err.status, undefined, now() - started, null, [], err.code);
      throw err;
    }
  }

  /**
   * Streams canonical parts. Until the first part is in hand a retryable failure moves on to the next
   * deployment; after it, a failure ends the stream with the error (the caller has seen bytes).
   * Usage is logged when the stream ends, fails or is abandoned.
   */
  async *stream(principal: Principal, request: TextRequest, meta: TextCallMeta): AsyncGenerator<TextStreamPart> {
    const now = this.deps.now ?? Date.now;
    const started = now();
    const model = this.resolve(principal, request.model);
    const routing: Routing = { attempts: 0, provider: null };
    let ttft: number | null = null;
    let usage: Usage | undefined;
    let warnings: string[] = [];
    let status = 'cancelled';
    let httpStatus = 499;
    let errorCode: string | undefined;
    let chosen: Attempt | undefined;
    let upstream: AsyncIterator<TextStreamPart> | undefined;
    let finished = false;
    let credits: number | undefined;
    try {
      await this.deps.billing?.precheck(principal);
      let first: IteratorResult<TextStreamPart> | undefined;
      let lastError: GatewayError | undefined;
      for (const a of this.attempts(model, routing)) {
        const it = a.port.stream(this.upstreamRequest(request, meta, a.deployment), meta)[Symbol.asyncIterator]();
        try {
          first = await it.next();
          chosen = a;
          upstream = it;
          break;
        } catch (e) {
          lastError = this.settle(a, e, meta);
          routing.upstreamRequestId = lastError.upstreamRequestId;
          if (!lastError.retryable || meta.signal.aborted) throw lastError;
        }
      }
      if (!chosen || !upstream || !first) throw lastError ?? this.noDeployment(model, routing);

      for (let r = first; !r.done; r = await upstream.next()) {
        if (ttft === null) ttft = now() - started;
        if (r.value.type === 'finish') {
          usage = r.value.usage;
          warnings = r.value.warnings ?? [];
          routing.upstreamRequestId = r.value.upstreamRequestId;
        }
        yield r.value;
      }
      finished = true;
      this.verdict(chosen, 'success', { outcome: 'ok' });
      status = 'ok';
      httpStatus = 200;
      if (usage) credits = await this.settleCredits(principal, model, usage, meta);
    } catch (e) {
      const err = toGatewayError(e);
      routing.upstreamRequestId ??= err.upstreamRequestId;
      if (chosen && !finished) {
        finished = true;
        this.settle(chosen, err, meta);
      }
      status = 'error';
      httpStatus = err.status;
      errorCode = err.code;
      throw err;
    } finally {
      if (chosen && !finished) {
        // Abandoned by the consumer: close the upstream, and give the breaker no verdict.
        this.verdict(chosen, 'neutral', { outcome: 'cancelled' });
        await upstream?.return?.().catch(() => undefined);
      }
      this.log(principal, meta, model.id, routing, status, httpStatus, usage, now() - started, ttft, warnings, errorCode, credits);
    }
  }

  /**
   * The request's input tokens: counted by the first deployment whose upstream can count (failing over on
   * retryable errors, like generation), else estimated here. Free: no quota check, no usage row.
   */
  async countTokens(principal: Principal, request: TextRequest, meta: TextCallMeta): Promise<{ inputTokens: number; estimated: boolean }> {
    const model = this.resolve(principal, request.model);
    for (const a of this.attempts(model, { attempts: 0, provider: null })) {
      if (!a.port.countTokens) {
        a.breaker.onNeutral(a.permit);
        continue;
      }
      try {
        const inputTokens = await a.port.countTokens(this.upstreamRequest(request, meta, a.deployment), meta);
        a.breaker.onSuccess(a.permit);
        return { inputTokens, estimated: false };
      } catch (e) {
        const err = this.settle(a, e, meta);
        if (!err.retryable || meta.signal.aborted) throw err;
      }
    }
    return { inputTokens: estimateInputTokens(request), estimated: true };
  }

  /** Charges what the call cost (nothing for unpriced models, so the hot path stays free of writes). */
  private async settleCredits(p: Principal, model: ModelSpec, usage: Usage, meta: TextCallMeta): Promise<number> {
    const credits = textCost(model, usage);
    if (credits > 0) await this.deps.billing?.settle(p, credits, 'text', { requestId: meta.requestId });
    return credits;
  }

  /** The deployments that may be tried now, in order, each with a breaker permit; counts attempts. */
  private *attempts(model: ModelSpec, routing: Routing): Generator<Attempt> {
    for (const deployment of orderDeployments(model.deployments, this.deps.random ?? Math.random)) {
      const port = this.deps.providers.text(deployment.provider);
      if (!port) continue;
      const breaker = this.breaker(deployment);
      const permit = breaker.acquire();
      if (!permit) continue;
      routing.attempts++;
      routing.provider = deployment.provider;
      yield { deployment, port, breaker, permit };
    }
  }

  /** Reports a failed attempt to its breaker: retryable failures count, a gone client does not. */
  private settle(a: Attempt, e: unknown, meta: TextCallMeta): GatewayError {
    const err = toGatewayError(e);
    const attempt = { outcome: meta.signal.aborted ? 'cancelled' : err.code, upstreamStatus: err.upstreamStatus };
    if (meta.signal.aborted) this.verdict(a, 'neutral', attempt);
    else if (err.retryable) this.verdict(a, 'failure', attempt);
    // A non-retryable answer (say a 400) still shows the upstream is up.
    else this.verdict(a, 'success', attempt);
    return err;
  }

  /** Gives the breaker its verdict on one attempt and tells the observer about the attempt and any transition. */
  private verdict(a: Attempt, kind: 'success' | 'failure' | 'neutral', attempt: { outcome: string; upstreamStatus?: number }): void {
    const before = a.breaker.state;
    if (kind === 'success') a.breaker.onSuccess(a.permit);
    else if (kind === 'failure') a.breaker.onFailure(a.permit);
    else a.breaker.onNeutral(a.permit);
    const observer = this.deps.observer;
    if (!observer) return;
    const where = { provider: a.deployment.provider, upstreamModel: a.deployment.upstreamModel };
    observer.attempt({ ...where, ...attempt });
    const after = a.breaker.state;
    if (after !== before) observer.breakerChanged({ ...where, from: before, to: after });
  }

  private noDeployment(model: ModelSpec, routing: Routing): GatewayError {
    const anyPort = model.deployments.some((d) => this.deps.providers.text(d.provider));
    if (!anyPort) return new GatewayError('upstream_unavailable', `No upstream serves ${model.id}.`, { code: 'no_upstream' });
    routing.provider = null;
    return new GatewayError('upstream_unavailable', `Every upstream of ${model.id} is temporarily unavailable; retry later.`, {
      code: 'all_upstreams_unavailable',
    });
  }

  private upstreamRequest(request: TextRequest, meta: TextCallMeta, d: Deployment): TextRequest {
    const extraFormat = request.extra && !request.extraFormat ? meta.format : request.extraFormat;
    return { ...request, model: d.upstreamModel, ...(extraFormat ? { extraFormat } : {}) };
  }

  private breaker(d: Pick<Deployment, 'provider' | 'upstreamModel'>): CircuitBreaker {
    const key = `${d.provider}\u0000${d.upstreamModel}`;
    let b = this.breakers.get(key);
    if (!b) {
      b = new CircuitBreaker(this.deps.breaker, this.deps.now ?? Date.now);
      this.breakers.set(key, b);
    }
    return b;
  }

  private log(
    p: Principal,
    meta: TextCallMeta,
    model: string,
    routing: Routing,
    status: string,
    httpStatus: number,
    usage: Usage | undefined,
    latencyMs: number,
    ttftMs: number | null,
    warnings: string[],
    errorCode?: string,
    credits?: number,
  ): void {
    this.deps.usage.record({
      requestId: meta.requestId,
      accountId: p.accountId,
      keyId: p.keyId,
      model,
      format: meta.format,
      status,
      httpStatus,
      errorCode: errorCode ?? null,
      inputTokens: usage?.inputTokens,
      outputTokens: usage?.outputTokens,
      cachedTokens: usage?.cachedInputTokens,
      reasoningTokens: usage?.reasoningTokens,
      latencyMs,
      ttftMs,
      provider: routing.provider,
      attempts: routing.attempts,
      warnings,
      credits,
      upstreamRequestId: routing.upstreamRequestId ?? null,
    });
  }
}
