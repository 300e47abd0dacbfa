import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import { toGatewayError, type GatewayError } from '../errors';
import type { ImageResult, ImageStreamPart, ImageUsage } from '../image';
import type { AttemptAnswer, ImageModelPort } from '../ports';
import { imageCost } from '../billing';
import { DeploymentSelector, type DeploymentAttempt, type RoutedCallDeps } from './deployment-selection';
import { prepareImageCall, type ImageCommand, type PreparedImageCall } from './image-request-check';
import { resolveModel } from './resolve-model';
import { warningText, type Warning } from '../warnings';

export interface ImageProviderLookup {
  image(providerId: string): ImageModelPort | undefined;
}

export interface ImageCallMeta {
  format: string;
  requestId: string;
  signal: AbortSignal;
}

export interface ImageGenerationDeps extends RoutedCallDeps {
  providers: ImageProviderLookup;
}

/** What the usage row says about routing. */
interface Routing {
  attempts: number;
  provider: string | null;
}

type Attempt = DeploymentAttempt<ImageModelPort>;

/**
 * Image generation and editing: check the command against the model, call its deployments in the one
 * selection policy (failing over on retryable errors until the first part is in hand), log usage.
 */
export class ImageGeneration {
  private readonly selector: DeploymentSelector;

  constructor(private readonly deps: ImageGenerationDeps) {
    this.selector = new DeploymentSelector(deps);
  }

  resolve(principal: Principal, modelId: unknown): ModelSpec {
    return resolveModel(this.deps.catalogue, principal, modelId, 'image');
  }

  prepare(principal: Principal, cmd: ImageCommand): PreparedImageCall {
    return prepareImageCall(this.deps.catalogue, principal, cmd);
  }

  /** A deployment's breaker state, for health pages and tests. */
  circuitState(provider: string, upstreamModel: string) {
    return this.selector.circuitState(provider, upstreamModel);
  }

  async generate(principal: Principal, call: PreparedImageCall, meta: ImageCallMeta): Promise<ImageResult> {
    const now = this.deps.now ?? Date.now;
    const started = now();
    const routing: Routing = { attempts: 0, provider: null };
    let reserved = 0;
    try {
      reserved = await this.reserve(principal, call, meta);
      let lastError: GatewayError | undefined;
      for (const a of this.attempts(call.model, routing, meta)) {
        try {
          const result = await a.port.generate(this.upstreamRequest(call, a), meta);
          this.selector.succeeded(a, answerOf(result.usage));
          const credits = await this.settleCredits(principal, call, reserved, result.images.length, meta);
          reserved = 0;
          this.log(principal, meta, call.model.id, routing, 'ok', 200, result.usage, now() - started, result.warnings, undefined, credits);
          return result;
        } catch (e) {
          const failure = this.selector.failed(a, e, meta.signal);
          lastError = failure.error;
          if (!failure.failover) throw lastError;
        }
      }
      throw lastError ?? this.exhausted(call.model);
    } catch (e) {
      const err = toGatewayError(e);
      await this.settleCredits(principal, call, reserved, 0, meta);
      // A caller that left is a client-closed request (499), as an abandoned stream is.
      const left = meta.signal.aborted;
      this.log(
        principal,
        meta,
        call.model.id,
        routing,
        left ? 'cancelled' : 'error',
        left ? 499 : err.status,
        undefined,
        now() - started,
        [],
        err.code,
      );
      throw err;
    }
  }

  /** Streams partial images when the upstream can; otherwise the finished images. Logged when it ends. */
  async *stream(principal: Principal, call: PreparedImageCall, meta: ImageCallMeta): AsyncGenerator<ImageStreamPart> {
    const now = this.deps.now ?? Date.now;
    const started = now();
    const routing: Routing = { attempts: 0, provider: null };
    let usage: ImageUsage | undefined;
    let warnings: Warning[] = [];
    let outcome: { status: string; httpStatus: number; code?: string } = { status: 'cancelled', httpStatus: 499 };
    let images = 0;
    let reserved = 0;
    let credits: number | undefined;
    let chosen: Attempt | undefined;
    let finished = false;
    try {
      reserved = await this.reserve(principal, call, meta);
      let upstream: AsyncIterator<ImageStreamPart> | undefined;
      let first: IteratorResult<ImageStreamPart> | undefined;
      let lastError: GatewayError | undefined;
      for (const a of this.attempts(call.model, routing, meta)) {
        const it = this.partsOf(a, call, meta)[Symbol.asyncIterator]();
        try {
          first = await it.next();
          chosen = a;
          upstream = it;
          break;
        } catch (e) {
          const failure = this.selector.failed(a, e, meta.signal);
          lastError = failure.error;
          if (!failure.failover) throw lastError;
        }
      }
      if (!chosen || !upstream || !first) throw lastError ?? this.exhausted(call.model);
      for (let r = first; !r.done; r = await upstream.next()) {
        if (r.value.type === 'finish') ({ usage, warnings } = r.value);
        if (r.value.type === 'image') images++;
        yield r.value;
      }
      finished = true;
      this.selector.succeeded(chosen, answerOf(usage));
      outcome = { status: 'ok', httpStatus: 200 };
    } catch (e) {
      const err = toGatewayError(e);
      if (chosen && !finished) {
        finished = true;
        this.selector.failed(chosen, err, meta.signal);
      }
      outcome = { status: 'error', httpStatus: err.status, code: err.code };
      throw err;
    } finally {
      if (chosen && !finished) this.selector.abandoned(chosen);
      // Charged for what was delivered, whatever ended the stream; the rest of the reservation goes back.
      credits = await this.settleCredits(principal, call, reserved, images, meta);
      this.log(
        principal,
        meta,
        call.model.id,
        routing,
        outcome.status,
        outcome.httpStatus,
        usage,
        now() - started,
        warnings,
        outcome.code,
        credits,
      );
    }
  }

  /** One deployment's parts: its own stream, or its finished images as parts when it cannot stream. */
  private async *partsOf(a: Attempt, call: PreparedImageCall, meta: ImageCallMeta): AsyncGenerator<ImageStreamPart> {
    const request = this.upstreamRequest(call, a);
    if (a.port.stream) {
      yield* a.port.stream(request, meta);
      return;
    }
    const result = await a.port.generate(request, meta);
    for (const image of result.images) yield { type: 'image', image };
    yield { type: 'finish', warnings: result.warnings, usage: result.usage };
  }

  private *attempts(model: ModelSpec, routing: Routing, meta: ImageCallMeta): Generator<Attempt> {
    const traced = { requestId: meta.requestId, operation: 'generate_content', model: model.id };
    for (const a of this.selector.attempts(model.deployments, (p) => this.deps.providers.image(p), traced)) {
      routing.attempts++;
      routing.provider = a.deployment.provider;
      yield a;
    }
  }

  private exhausted(model: ModelSpec): GatewayError {
    return this.selector.exhausted(model.id, model.deployments, (p) => this.deps.providers.image(p));
  }

  private upstreamRequest(call: PreparedImageCall, a: Attempt) {
    return { ...call.request, model: a.deployment.upstreamModel };
  }

  /** The full price of the request, taken before the call in one conditional write (never past the limit). */
  private async reserve(p: Principal, call: PreparedImageCall, meta: ImageCallMeta): Promise<number> {
    const cost = imageCost(call.model, call.request.n);
    await this.deps.billing?.reserve(p, cost, 'images', { requestId: meta.requestId });
    return this.deps.billing ? cost : 0;
  }

  /** Keeps the price of the images delivered and gives back the rest of the reservation. */
  private async settleCredits(p: Principal, call: PreparedImageCall, reserved: number, images: number, meta: ImageCallMeta) {
    const credits = imageCost(call.model, images);
    const unused = reserved - credits;
    if (unused > 0) await this.deps.billing?.refund(p, unused, 'images refund', { requestId: meta.requestId });
    return credits;
  }

  private log(
    p: Principal,
    meta: ImageCallMeta,
    model: string,
    routing: Routing,
    status: string,
    httpStatus: number,
    usage: ImageUsage | undefined,
    latencyMs: number,
    warnings: Warning[],
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
      inputTokens: usage && usage.inputTextTokens + usage.inputImageTokens,
      outputTokens: usage?.outputTokens,
      latencyMs,
      ttftMs: null,
      provider: routing.provider,
      attempts: routing.attempts,
      warnings: warnings.map(warningText),
      credits,
    });
  }
}

/** Token counts for the observer (traces), when the upstream reported them. */
function answerOf(usage: ImageUsage | undefined): AttemptAnswer {
  return usage ? { inputTokens: usage.inputTextTokens + usage.inputImageTokens, outputTokens: usage.outputTokens } : {};
}
