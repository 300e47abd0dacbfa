import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth';
import type { Deployment, ModelSpec } from '../catalogue';
import { GatewayError, toGatewayError } from '../errors';
import type { AttemptAnswer, TextModelPort } from '../ports';
import type { TextRequest, TextResult, TextStreamPart, Usage } from '../text';
import { estimateInputTokens, estimateTextTokens } from '../token-estimate';
import type { CircuitState } from './circuit-breaker';
import { DeploymentSelector, type DeploymentAttempt, type RoutedCallDeps } from './deployment-selection';
import { textCost } from '../billing';
import { resolveModel } from './resolve-model';
import { warningText, type Warning } from '../warnings';
import { accountResourcesFor, DEFAULT_ACCOUNT_RESOURCES_POLICY, type AccountResourcesPolicy } from '../account-resources';
import { DEFAULT_HOSTED_TOOLS_POLICY, hostedToolsFor, type HostedToolsPolicy } from '../hosted-tools';

export interface ProviderLookup {
  text(providerId: string): TextModelPort | undefined;
  /** the provider's hosted-tools policy (default drop) */
  hostedToolsPolicy?(providerId: string): HostedToolsPolicy | undefined;
  /** the provider's policy for body fields naming upstream-account resources (default refuse; core/account-resources.ts) */
  accountResourcesPolicy?(providerId: string): AccountResourcesPolicy | undefined;
}

export interface TextCallMeta {
  format: string;
  requestId: string;
  signal: AbortSignal;
  /** the model the adapter already resolved with resolve(): the request is not resolved a second time */
  model?: ModelSpec;
  /**
   * Warnings known once an upstream is chosen, before the first part (e.g. hosted tools it does not run):
   * a streaming adapter puts them in its response header. Non-streaming results carry them in `warnings`.
   */
  onWarnings?(warnings: Warning[]): void;
}

export interface TextGenerationDeps extends RoutedCallDeps {
  providers: ProviderLookup;
  /** a charge the store refused: reported, never thrown at the caller; it goes with the usage row (`charge`) instead */
  onSettleFailure?(failure: { requestId: string; accountId: string; credits: number; error: unknown }): void;
}

type Attempt = DeploymentAttempt<TextModelPort>;

/** What the usage row says about routing. */
interface Routing {
  attempts: number;
  provider: string | null;
  /** the usage row's id (a pending row and the final one share it; a charge names it, so it is applied once) */
  rowId?: string;
  /** credits settled on the request path that the store refused: charged with the usage row */
  charge?: number;
  /** the provider's request id of the call that answered (or failed last) */
  upstreamRequestId?: string;
}

/**
 * Text generation: resolve the model for the caller, try its deployments in order (failing over on
 * retryable errors until the first byte is committed), keep a circuit breaker per deployment, log usage.
 */
export class TextGeneration {
  private readonly selector: DeploymentSelector;

  constructor(private readonly deps: TextGenerationDeps) {
    this.selector = new DeploymentSelector(deps);
  }

  /** Checks the model before anything else, so wire adapters can fail fast. */
  resolve(principal: Principal, modelId: unknown): ModelSpec {
    return resolveModel(this.deps.catalogue, principal, modelId, 'text');
  }

  /** A deployment's breaker state, for health pages and tests. */
  circuitState(provider: string, upstreamModel: string): CircuitState {
    return this.selector.circuitState(provider, upstreamModel);
  }

  /** Every deployment's breaker seen so far (metrics). */
  circuitStates(): Array<{ provider: string; upstreamModel: string; state: CircuitState }> {
    return this.selector.circuitStates();
  }

  async generate(principal: Principal, request: TextRequest, meta: TextCallMeta): Promise<TextResult> {
    const now = this.deps.now ?? Date.now;
    const started = now();
    const model = meta.model ?? this.resolve(principal, request.model);
    const routing: Routing = { attempts: 0, provider: null, rowId: randomUUID() };
    try {
      await this.deps.billing?.precheck(principal);
      let lastError: GatewayError | undefined;
      for (const a of this.attempts(model, routing, meta, 'chat')) {
        try {
          const upstream = this.upstreamRequest(request, meta, a);
          const result = await a.port.generate(upstream.request, meta);
          this.selector.succeeded(a, answerOf(result.usage, result.finishReason, result.id, result.model));
          routing.upstreamRequestId = result.upstreamRequestId;
          const warnings = [...upstream.warnings, ...result.warnings];
          const credits = await this.settleCredits(principal, model, result.usage, meta, routing);
          this.log(principal, meta, model.id, routing, 'ok', 200, result.usage, now() - started, null, warnings, undefined, credits);
          return { ...result, model: model.id, warnings };
        } catch (e) {
          const failure = this.selector.failed(a, e, meta.signal);
          lastError = failure.error;
          routing.upstreamRequestId = lastError.upstreamRequestId;
          if (!failure.failover) throw lastError;
        }
      }
      throw lastError ?? this.noDeployment(model, routing);
    } catch (e) {
      const err = toGatewayError(e);
      // A caller that left is a client-closed request (499), as an abandoned stream is, whatever the abort raised.
      const left = meta.signal.aborted;
      this.log(
        principal,
        meta,
        model.id,
        routing,
        left ? 'cancelled' : 'error',
        left ? 499 : err.status,
        undefined,
        now() - started,
        null,
        [],
        err.code,
      );
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
    const model = meta.model ?? this.resolve(principal, request.model);
    const routing: Routing = { attempts: 0, provider: null, rowId: randomUUID() };
    let ttft: number | null = null;
    let usage: Usage | undefined;
    let finishReason: string | undefined;
    let warnings: Warning[] = [];
    let status = 'cancelled';
    let httpStatus = 499;
    let errorCode: string | undefined;
    let chosen: Attempt | undefined;
    let upstream: AsyncIterator<TextStreamPart> | undefined;
    let finished = false;
    let credits: number | undefined;
    let delivered = '';
    let announcedInput: number | undefined;
    try {
      await this.deps.billing?.precheck(principal);
      let first: IteratorResult<TextStreamPart> | undefined;
      let lastError: GatewayError | undefined;
      let before: Warning[] = [];
      for (const a of this.attempts(model, routing, meta, 'chat')) {
        try {
          const prepared = this.upstreamRequest(request, meta, a);
          const it = a.port.stream(prepared.request, meta)[Symbol.asyncIterator]();
          first = await it.next();
          chosen = a;
          upstream = it;
          before = prepared.warnings;
          break;
        } catch (e) {
          const failure = this.selector.failed(a, e, meta.signal);
          lastError = failure.error;
          routing.upstreamRequestId = lastError.upstreamRequestId;
          if (!failure.failover) throw lastError;
        }
      }
      if (!chosen || !upstream || !first) throw lastError ?? this.noDeployment(model, routing);
      warnings = before;
      if (before.length) meta.onWarnings?.(before);
      this.admitPriced(principal, request, model, meta, routing);

      for (let r = first; !r.done; r = await upstream.next()) {
        if (ttft === null) ttft = now() - started;
        if (r.value.type === 'finish') {
          usage = r.value.usage;
          finishReason = r.value.finishReason;
          warnings = [...before, ...(r.value.warnings ?? [])];
          routing.upstreamRequestId = r.value.upstreamRequestId;
        }
        if (r.value.type === 'input-usage') announcedInput = r.value.usage.inputTokens;
        if (r.value.type === 'text-delta' || r.value.type === 'reasoning-delta') delivered += r.value.delta;
        yield r.value;
      }
      finished = true;
      this.selector.succeeded(chosen, answerOf(usage, finishReason));
      status = 'ok';
      httpStatus = 200;
      if (usage) credits = await this.settleCredits(principal, model, usage, meta, routing);
    } catch (e) {
      const err = toGatewayError(e);
      routing.upstreamRequestId ??= err.upstreamRequestId;
      // a caller that left (or our own shutdown) ends the stream as abandoned, charged for what was delivered below
      const left = meta.signal.aborted;
      if (chosen && !finished && !left) {
        finished = true;
        this.selector.failed(chosen, err, meta.signal);
      }
      if (!left) {
        status = 'error';
        httpStatus = err.status;
        errorCode = err.code;
      }
      throw err;
    } finally {
      if (chosen && !finished) {
        const cut = endedBy(meta.signal);
        status = cut.status;
        httpStatus = cut.httpStatus;
        errorCode = cut.errorCode;
        // Abandoned by the consumer: close the upstream, and give the breaker no verdict.
        this.selector.abandoned(chosen);
        await upstream?.return?.().catch(() => undefined); // nobody is left to tell; the charge below does not need it
        // What was delivered is charged: the upstream's usage if it came, else its input count (or the estimate) and
        // the delivered text estimated.
        if (!usage) {
          const inputTokens = announcedInput ?? estimateInputTokens(request);
          const outputTokens = estimateTextTokens(delivered);
          usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
        }
        credits = await this.settleCredits(principal, model, usage, meta, routing);
      }
      this.log(principal, meta, model.id, routing, status, httpStatus, usage, now() - started, ttft, warnings, errorCode, credits);
    }
  }

  /**
   * The request's input tokens: counted by the first deployment whose upstream can count (failing over on
   * retryable errors, like generation), else estimated here. Free: no quota check, no usage row.
   */
  async countTokens(principal: Principal, request: TextRequest, meta: TextCallMeta): Promise<{ inputTokens: number; estimated: boolean }> {
    const model = meta.model ?? this.resolve(principal, request.model);
    for (const a of this.attempts(model, { attempts: 0, provider: null }, meta, 'count_tokens')) {
      if (!a.port.countTokens) {
        this.selector.abandoned(a);
        continue;
      }
      try {
        const inputTokens = await a.port.countTokens(this.upstreamRequest(request, meta, a).request, meta);
        this.selector.succeeded(a);
        return { inputTokens, estimated: false };
      } catch (e) {
        const failure = this.selector.failed(a, e, meta.signal);
        if (!failure.failover) throw failure.error;
      }
    }
    return { inputTokens: estimateInputTokens(request), estimated: true };
  }

  /**
   * Charges what the call cost (nothing for unpriced models, so the hot path stays free of writes), once per usage
   * row. A charge the store refused is not lost and not thrown at a caller who got the answer: it is reported and
   * goes with the usage row (`charge`), which charges it when written.
   */
  private async settleCredits(p: Principal, model: ModelSpec, usage: Usage, meta: TextCallMeta, routing: Routing): Promise<number> {
    const credits = textCost(model, usage);
    if (credits <= 0 || !this.deps.billing) return credits;
    try {
      await this.deps.billing.settle(p, credits, 'text', { requestId: meta.requestId, usageRowId: routing.rowId });
    } catch (error) {
      routing.charge = credits;
      this.deps.onSettleFailure?.({ requestId: meta.requestId, accountId: p.accountId, credits, error });
    }
    return credits;
  }

  /**
   * A priced stream is recorded durably before its first byte (status `pending`, the input estimated and charged):
   * if the process dies before the stream ends, recovery writes that row and charges it (usage-log.port.ts).
   */
  private admitPriced(p: Principal, request: TextRequest, model: ModelSpec, meta: TextCallMeta, routing: Routing): void {
    if (!this.deps.usage.pending || !model.pricing) return;
    const inputTokens = estimateInputTokens(request);
    const credits = textCost(model, { inputTokens, outputTokens: 0, totalTokens: inputTokens });
    this.deps.usage.pending({
      rowId: routing.rowId,
      requestId: meta.requestId,
      accountId: p.accountId,
      keyId: p.keyId,
      model: model.id,
      format: meta.format,
      status: 'pending',
      httpStatus: 200,
      inputTokens,
      outputTokens: 0,
      provider: routing.provider,
      attempts: routing.attempts,
      credits,
      charge: credits,
    });
  }

  /** The deployments that may be tried now (the one policy), counting attempts for the usage row. */
  private *attempts(model: ModelSpec, routing: Routing, meta: TextCallMeta, operation: string): Generator<Attempt> {
    const call = { requestId: meta.requestId, operation, model: model.id };
    for (const a of this.selector.attempts(model.deployments, (p) => this.deps.providers.text(p), call)) {
      routing.attempts++;
      routing.provider = a.deployment.provider;
      yield a;
    }
  }

  private noDeployment(model: ModelSpec, routing: Routing): GatewayError {
    const err = this.selector.exhausted(model.id, model.deployments, (p) => this.deps.providers.text(p));
    if (err.code === 'all_upstreams_unavailable') routing.provider = null;
    return err;
  }

  /** The request as one deployment gets it: its model name, and only the hosted tools its upstream runs. */
  private upstreamRequest(request: TextRequest, meta: TextCallMeta, a: Attempt): { request: TextRequest; warnings: Warning[] } {
    const d: Deployment = a.deployment;
    const policy = this.deps.providers.hostedToolsPolicy?.(d.provider) ?? DEFAULT_HOSTED_TOOLS_POLICY;
    const hosted = hostedToolsFor(request, a.port.hostedToolFormats, policy);
    const resourcesPolicy = this.deps.providers.accountResourcesPolicy?.(d.provider) ?? DEFAULT_ACCOUNT_RESOURCES_POLICY;
    const safe = accountResourcesFor(hosted.request, resourcesPolicy);
    return {
      request: { ...safe.request, model: d.upstreamModel },
      warnings: [...hosted.warnings, ...safe.warnings],
    };
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
    warnings: Warning[],
    errorCode?: string,
    credits?: number,
  ): void {
    this.deps.usage.record({
      rowId: routing.rowId,
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
      cacheWriteTokens: usage?.cacheCreationInputTokens,
      reasoningTokens: usage?.reasoningTokens,
      latencyMs,
      ttftMs,
      provider: routing.provider,
      attempts: routing.attempts,
      warnings: warnings.map(warningText),
      credits,
      ...(routing.charge ? { charge: routing.charge } : {}),
      upstreamRequestId: routing.upstreamRequestId ?? null,
    });
  }
}

/**
 * How an abandoned stream ended: the client left (499 `client_closed`), or our own shutdown cut it (the request
 * signal's reason is the shutting-down error: 503 `shutdown`), never an upstream failure.
 */
function endedBy(signal: AbortSignal): { status: string; httpStatus: number; errorCode: string } {
  const reason = signal.reason as { code?: unknown } | undefined;
  if (reason instanceof GatewayError && reason.code === 'server_shutting_down')
    return { status: 'shutdown', httpStatus: 503, errorCode: 'server_shutting_down' };
  return { status: 'cancelled', httpStatus: 499, errorCode: 'client_closed' };
}

/** What an answer says about itself for the observer (traces): counts and ids, never content. */
function answerOf(usage: Usage | undefined, finishReason?: string, responseId?: string, responseModel?: string): AttemptAnswer {
  return {
    responseId,
    responseModel,
    finishReasons: finishReason ? [finishReason] : undefined,
    inputTokens: usage?.inputTokens,
    outputTokens: usage?.outputTokens,
  };
}
