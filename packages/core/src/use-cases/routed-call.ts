import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import { GatewayError, toGatewayError } from '../errors';
import type { AttemptAnswer } from '../ports/routing-observer.port';
import { DeploymentSelector, type DeploymentAttempt, type RoutedCallDeps } from './deployment-selection';
import { UsageRecord, writeWhenDue, type CallOutcome, type RoutedCallMeta } from './usage-record';

/** How a call ended, for what it pays: answered, failed, or cut short after its first part. */
export type CallEnd = 'ok' | 'error' | 'abandoned';

/**
 * What one kind of call (text, images) adds to the routed path: how it pays (a check or a reservation before any
 * upstream is called, a settlement or refund when it ends), the request each deployment gets, what its answer or
 * parts count. R is the answer of a call in one piece, Part a streamed call's part.
 */
export interface CallPlan<P, R, Part> {
  /** what the observer is told the call does */
  readonly operation: string;
  admit(): Promise<void>;
  /** keeps what the call cost and gives back the rest of a reservation; the credits its usage row shows */
  settle(end: CallEnd): Promise<number | undefined>;
  /** one deployment's answer in one piece */
  call(a: DeploymentAttempt<P>): Promise<R>;
  /** the answer is kept: noted on the usage record; returns what it says for the observer */
  keepAnswer(answer: R): AttemptAnswer;
  /** one deployment's parts */
  open(a: DeploymentAttempt<P>): AsyncIterator<Part>;
  /** the first part is in hand: the call stays on this deployment */
  committed?(): void;
  /** each part, before the caller gets it */
  notePart(part: Part): void;
  /** cut short after its first part: what was delivered is what the row shows and the payment charges */
  cutShort?(): void;
  /** what the stream said, for the observer */
  streamAnswer(): AttemptAnswer;
}

const OK: CallOutcome = { status: 'ok', httpStatus: 200 };

/**
 * The routed call of text and image generation (and, free of charge, of token counts): deployments tried in the
 * selection policy's order (a retryable failure moves on to the next until the first part is in hand), the breaker
 * told every outcome, the credits settled or refunded however the call ends, and one usage row written from the
 * call's UsageRecord.
 */
export class RoutedCalls<P> {
  readonly selector: DeploymentSelector;

  constructor(
    private readonly deps: RoutedCallDeps,
    private readonly portOf: (provider: string) => P | undefined,
  ) {
    this.selector = new DeploymentSelector(deps);
  }

  /** A new call's usage record: its latency counts from now. */
  record(principal: Principal, model: ModelSpec, meta: RoutedCallMeta): UsageRecord {
    return new UsageRecord(principal, model, meta, this.deps.now ?? Date.now);
  }

  /** The deployments that may be tried now (the deployment-selection policy), counting attempts on the record when there is one. */
  *attempts(model: ModelSpec, meta: RoutedCallMeta, operation: string, record?: UsageRecord): Generator<DeploymentAttempt<P>> {
    const call = { requestId: meta.requestId, operation, model: model.id };
    for (const a of this.selector.attempts(model.deployments, this.portOf, call)) {
      if (record) {
        record.attempts++;
        record.provider = a.deployment.provider;
      }
      yield a;
    }
  }

  /** A call answered in one piece. A caller that left is a client-closed request (499), whatever the abort raised. */
  async answer<R>(record: UsageRecord, plan: CallPlan<P, R, unknown>): Promise<R> {
    try {
      await plan.admit();
      const { chosen, first } = await this.firstAnswer(record, plan.operation, (a) => plan.call(a));
      this.selector.succeeded(chosen, plan.keepAnswer(first));
      record.outcome = OK;
      record.credits = await plan.settle('ok');
      this.write(record);
      return first;
    } catch (e) {
      const err = toGatewayError(e);
      await plan.settle('error');
      const left = record.meta.signal.aborted;
      record.outcome = left ? { status: 'cancelled', httpStatus: 499, errorCode: err.code } : errorOutcome(err);
      this.write(record);
      throw err;
    }
  }

  /**
   * Streams the parts of the first deployment that delivers one. After it, a failure ends the stream with the error
   * (the caller has seen bytes); a stream its consumer abandons closes the upstream and gives the breaker no verdict.
   * The usage row is written when the stream ends, fails or is abandoned.
   */
  async *stream<Part>(record: UsageRecord, plan: CallPlan<P, unknown, Part>): AsyncGenerator<Part> {
    const { signal } = record.meta;
    let chosen: DeploymentAttempt<P> | undefined;
    let upstream: AsyncIterator<Part> | undefined;
    let end: CallEnd = 'error';
    try {
      await plan.admit();
      const opened = await this.firstAnswer(record, plan.operation, (a) => firstPartOf(plan.open(a)));
      chosen = opened.chosen;
      upstream = opened.first.parts;
      plan.committed?.();
      for (let r = opened.first.part; !r.done; r = await upstream.next()) {
        plan.notePart(r.value);
        yield r.value;
      }
      end = 'ok';
      this.selector.succeeded(chosen, plan.streamAnswer());
      record.outcome = OK;
    } catch (e) {
      const err = toGatewayError(e);
      record.upstreamRequestId ??= err.upstreamRequestId;
      // a caller that left (or our own shutdown) ends the stream as abandoned, charged for what was delivered below
      if (!signal.aborted) {
        if (chosen) this.selector.failed(chosen, err, signal);
        chosen = undefined; // the breaker has its verdict: nothing is abandoned below
        record.outcome = errorOutcome(err);
      }
      throw err;
    } finally {
      if (chosen && end !== 'ok') {
        end = 'abandoned';
        record.outcome = endedBy(signal);
        // abandoned by the consumer (or cut by the abort): no verdict for the breaker; a failing close changes nothing
        this.selector.abandoned(chosen);
        await upstream?.return?.().catch(() => undefined);
        plan.cutShort?.();
      }
      record.credits = await plan.settle(end);
      this.write(record);
    }
  }

  /**
   * A free call (token counts): no payment, no usage row; the same deployments, failover and breakers as every
   * call. A deployment `call` declines (undefined: its upstream cannot do this) is passed over. Undefined when no
   * deployment answered, every failure having been retryable.
   */
  async free<R>(
    model: ModelSpec,
    meta: RoutedCallMeta,
    operation: string,
    call: (a: DeploymentAttempt<P>) => Promise<R> | undefined,
  ): Promise<R | undefined> {
    const tried = await this.tryInOrder(model, meta, operation, call);
    if (!('chosen' in tried)) return undefined;
    this.selector.succeeded(tried.chosen);
    return tried.first;
  }

  /** Tries deployments in policy order until one answers; a retryable failure moves on to the next. */
  private async firstAnswer<R>(
    record: UsageRecord,
    operation: string,
    call: (a: DeploymentAttempt<P>) => Promise<R>,
  ): Promise<{ chosen: DeploymentAttempt<P>; first: R }> {
    const tried = await this.tryInOrder(record.model, record.meta, operation, call, record);
    if ('chosen' in tried) return tried;
    throw tried.lastError ?? this.selector.exhausted(record.model.id, record.model.deployments, this.portOf);
  }

  /**
   * The failover loop of every routed call: deployments in policy order until one answers. A non-retryable failure
   * is thrown; a declined deployment (undefined) is abandoned without a verdict.
   */
  private async tryInOrder<R>(
    model: ModelSpec,
    meta: RoutedCallMeta,
    operation: string,
    call: (a: DeploymentAttempt<P>) => Promise<R> | undefined,
    record?: UsageRecord,
  ): Promise<{ chosen: DeploymentAttempt<P>; first: R } | { lastError?: GatewayError }> {
    let lastError: GatewayError | undefined;
    for (const a of this.attempts(model, meta, operation, record)) {
      try {
        const answer = call(a);
        if (!answer) {
          this.selector.abandoned(a);
          continue;
        }
        return { chosen: a, first: await answer };
      } catch (e) {
        const failure = this.selector.failed(a, e, meta.signal);
        lastError = failure.error;
        if (record) record.upstreamRequestId = lastError.upstreamRequestId;
        if (!failure.failover) throw lastError;
      }
    }
    return { lastError };
  }

  private write(record: UsageRecord): void {
    writeWhenDue(record.meta, () => this.deps.usage.record(record.toRow()));
  }
}

async function firstPartOf<Part>(parts: AsyncIterator<Part>): Promise<{ parts: AsyncIterator<Part>; part: IteratorResult<Part> }> {
  return { parts, part: await parts.next() };
}

function errorOutcome(err: GatewayError): CallOutcome {
  return { status: 'error', httpStatus: err.status, errorCode: err.code };
}

/**
 * How an abandoned stream ended: the client left (499 `client_closed`), or our own shutdown cut it (the request
 * signal's reason is the shutting-down error: 503 `shutdown`), never an upstream failure.
 */
function endedBy(signal: AbortSignal): CallOutcome {
  const reason = signal.reason as { code?: unknown } | undefined;
  if (reason instanceof GatewayError && reason.code === 'server_shutting_down')
    return { status: 'shutdown', httpStatus: 503, errorCode: 'server_shutting_down' };
  return { status: 'cancelled', httpStatus: 499, errorCode: 'client_closed' };
}
