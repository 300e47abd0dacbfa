import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import type { CallContext } from '../ports/text-model.port';
import type { AttemptAnswer } from '../ports/routing-observer.port';
import { meteredCost, type MeteredKind, type MeteredUsage } from '../pricing';
import type { Warning } from '../warnings';
import type { DeploymentAttempt, RoutedCallDeps } from './deployment-selection';
import { resolveModel } from './resolve-model';
import { RoutedCalls, type CallEnd, type CallPlan } from './routed-call';
import type { RoutedCallMeta, UsageRecord } from './usage-record';

/** What one call of a metered kind used, for its usage row and its price. */
export interface Metered {
  usage: MeteredUsage;
  /** the token counts are the gateway's own: the upstream reported none */
  estimated?: boolean;
  warnings?: Warning[];
  upstreamRequestId?: string;
}

/**
 * What a call used, with its answer's warnings and request id; `estimated` where the gateway counted what the
 * upstream did not report.
 */
export function meteredAnswer(
  usage: MeteredUsage,
  estimated: boolean,
  answer?: { warnings?: Warning[]; upstreamRequestId?: string },
): Metered {
  return { usage, ...(estimated ? { estimated: true } : {}), warnings: answer?.warnings, upstreamRequestId: answer?.upstreamRequestId };
}

/**
 * What a metered kind (embeddings, speech, transcription, rerank, moderation) adds to the routed path: how its
 * port is called, and what a call used. Req is the kind's request (its `model` set per deployment), R its answer,
 * Part a streamed call's part (kinds that stream).
 */
export interface MeteredKindSpec<P, Req extends { model: string }, R, Part = never> {
  kind: MeteredKind;
  /** what the observer is told the call does */
  operation: string;
  call(port: P, request: Req, ctx: CallContext): Promise<R>;
  /** what the answer used; undefined: the upstream did not say, and `estimate` counts it */
  measure(answer: R, request: Req): Metered | undefined;
  /** what the request uses, counted by the gateway (marked estimated where it guesses tokens) */
  estimate(request: Req): Metered;
  /** one deployment's parts, for kinds that stream */
  open?(port: P, request: Req, ctx: CallContext): AsyncIterable<Part>;
  /** what a part says the call used (a finish part), if anything */
  measurePart?(part: Part, request: Req): Metered | undefined;
}

/** The kind's port of a configured upstream (the provider registry's `embedding(id)`, `rerank(id)`...). */
export type KindProviderLookup<P> = (providerId: string) => P | undefined;

/**
 * The routed call of a metered kind, built once per kind: resolve the model (of this kind), then deployments in
 * the selection policy with failover and breakers (routed-call.ts); the caller's budget is checked before any
 * upstream call, and what the call used (upstream's counts, else the gateway's own, marked estimated) is priced by
 * the kind's one price field (pricing.ts METERED_PRICE_FIELD), charged after the call and written in one usage row.
 */
export class MeteredCalls<P, Req extends { model: string }, R, Part = never> {
  private readonly calls: RoutedCalls<P>;

  constructor(
    private readonly deps: RoutedCallDeps,
    portOf: KindProviderLookup<P>,
    private readonly spec: MeteredKindSpec<P, Req, R, Part>,
  ) {
    this.calls = new RoutedCalls(deps, portOf);
  }

  /** The model a request names, refused as on chat when unknown, outside the key's group or of another kind. */
  resolve(principal: Principal, modelId: unknown): ModelSpec {
    return resolveModel(this.deps.catalogue, principal, modelId, this.spec.kind);
  }

  /** A deployment's breaker state, for health pages and tests. */
  circuitState(provider: string, upstreamModel: string) {
    return this.calls.selector.circuitState(provider, upstreamModel);
  }

  /** One call answered in one piece. */
  async answer(principal: Principal, model: ModelSpec, request: Req, meta: RoutedCallMeta): Promise<R> {
    const plan = new MeteredCall(this.deps, this.calls.record(principal, model, meta), request, this.spec);
    return await this.calls.answer(plan.record, plan);
  }

  /** One call streamed (kinds whose spec can open a stream); the usage row is written when it ends. */
  stream(principal: Principal, model: ModelSpec, request: Req, meta: RoutedCallMeta): AsyncGenerator<Part> {
    const plan = new MeteredCall(this.deps, this.calls.record(principal, model, meta), request, this.spec);
    return this.calls.stream(plan.record, plan);
  }
}

/** A metered kind's use case: its routed calls, and the model a request names (resolved before the body is decoded). */
export abstract class MeteredUseCase<P, Req extends { model: string }, R, Part = never> {
  protected readonly calls: MeteredCalls<P, Req, R, Part>;

  constructor(deps: RoutedCallDeps, providers: KindProviderLookup<P>, spec: MeteredKindSpec<P, Req, R, Part>) {
    this.calls = new MeteredCalls(deps, providers, spec);
  }

  resolve(principal: Principal, modelId: unknown): ModelSpec {
    return this.calls.resolve(principal, modelId);
  }
}

type Attempt<P> = DeploymentAttempt<P>;

/** One metered call on the routed path: checked against the budget first, charged for what it used after. */
class MeteredCall<P, Req extends { model: string }, R, Part> implements CallPlan<P, R, Part> {
  readonly operation: string;
  private metered?: Metered;

  constructor(
    private readonly deps: RoutedCallDeps,
    readonly record: UsageRecord,
    private readonly request: Req,
    private readonly spec: MeteredKindSpec<P, Req, R, Part>,
  ) {
    this.operation = spec.operation;
  }

  async admit(): Promise<void> {
    await this.deps.billing?.precheck(this.record.principal);
  }

  call(a: Attempt<P>): Promise<R> {
    return this.spec.call(a.port, this.upstreamRequest(a), this.record.meta);
  }

  keepAnswer(answer: R): AttemptAnswer {
    return this.counted(this.spec.measure(answer, this.request) ?? this.spec.estimate(this.request));
  }

  open(a: Attempt<P>): AsyncIterator<Part> {
    if (!this.spec.open) throw new Error(`${this.spec.kind} calls do not stream`);
    return this.spec.open(a.port, this.upstreamRequest(a), this.record.meta)[Symbol.asyncIterator]();
  }

  notePart(part: Part): void {
    this.record.delivered();
    const said = this.spec.measurePart?.(part, this.request);
    if (said) this.counted(said);
  }

  streamAnswer(): AttemptAnswer {
    return this.counted(this.metered ?? this.spec.estimate(this.request));
  }

  cutShort(): void {
    if (!this.metered) this.counted(this.spec.estimate(this.request));
  }

  /**
   * Charges what the call used (nothing for unpriced models, so the hot path stays free of writes), once per usage
   * row; a charge the store refused goes with the usage row (`charge`). A failed call is not charged.
   */
  async settle(end: CallEnd): Promise<number | undefined> {
    if (end === 'error' || !this.metered) return undefined;
    const { principal: p, meta, model } = this.record;
    const credits = meteredCost(model, this.metered.usage);
    if (credits <= 0 || !this.deps.billing) return credits;
    try {
      await this.deps.billing.settle(p, credits, this.spec.kind, { requestId: meta.requestId, usageRowId: this.record.rowId });
    } catch {
      this.record.charge = credits;
    }
    return credits;
  }

  private upstreamRequest(a: Attempt<P>): Req {
    return { ...this.request, model: a.deployment.upstreamModel };
  }

  private counted(m: Metered): AttemptAnswer {
    this.metered = m;
    const { inputTokens, outputTokens, characters, audioSeconds, searchUnits } = m.usage;
    this.record.tokens = { inputTokens, outputTokens, characters, audioSeconds, searchUnits, ...(m.estimated ? { estimated: true } : {}) };
    if (m.warnings) this.record.warnings = m.warnings;
    if (m.upstreamRequestId) this.record.upstreamRequestId = m.upstreamRequestId;
    return { inputTokens, outputTokens };
  }
}
