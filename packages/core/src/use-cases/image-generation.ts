import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import type { ImageResult, ImageStreamPart, ImageUsage } from '../image';
import type { ImageModelPort } from '../ports/image-model.port';
import type { AttemptAnswer } from '../ports/routing-observer.port';
import { imageCost } from '../pricing';
import type { DeploymentAttempt, RoutedCallDeps } from './deployment-selection';
import { prepareImageCall, type ImageCommand, type PreparedImageCall } from './image-request-check';
import { resolveModel } from './resolve-model';
import { RoutedCalls, type CallPlan } from './routed-call';
import type { RoutedCallMeta, UsageRecord } from './usage-record';
import type { Warning } from '../warnings';
import type { Guardrails } from './guardrails';

export interface ImageProviderLookup {
  image(providerId: string): ImageModelPort | undefined;
}

export type ImageCallMeta = RoutedCallMeta;

export interface ImageGenerationDeps extends RoutedCallDeps {
  providers: ImageProviderLookup;
  /** the caller's input guardrails, run on the prompt before the upstream (docs/guardrails.md) */
  guardrails?: Guardrails;
}

type Attempt = DeploymentAttempt<ImageModelPort>;

/**
 * Image generation and editing: check the command against the model, then make the routed call (routed-call.ts:
 * deployments in the deployment-selection policy, failing over on retryable errors until the first part is in hand).
 */
export class ImageGeneration {
  private readonly calls: RoutedCalls<ImageModelPort>;

  constructor(private readonly deps: ImageGenerationDeps) {
    this.calls = new RoutedCalls(deps, (p) => deps.providers.image(p));
  }

  resolve(principal: Principal, modelId: unknown): ModelSpec {
    return resolveModel(this.deps.catalogue, principal, modelId, 'image');
  }

  prepare(principal: Principal, cmd: ImageCommand): PreparedImageCall {
    return prepareImageCall(this.deps.catalogue, principal, cmd);
  }

  /** A deployment's breaker state, for health pages and tests. */
  circuitState(provider: string, upstreamModel: string) {
    return this.calls.selector.circuitState(provider, upstreamModel);
  }

  async generate(principal: Principal, call: PreparedImageCall, meta: ImageCallMeta): Promise<ImageResult> {
    ({ call, meta } = await this.guarded(principal, call, meta));
    const images = new ImageCall(this.deps, this.calls.record(principal, call.model, meta), call);
    return await this.calls.answer(images.record, images);
  }

  /** Streams partial images when the upstream can; otherwise the finished images. Logged when it ends. */
  async *stream(principal: Principal, call: PreparedImageCall, meta: ImageCallMeta): AsyncGenerator<ImageStreamPart> {
    ({ call, meta } = await this.guarded(principal, call, meta));
    const images = new ImageCall(this.deps, this.calls.record(principal, call.model, meta), call);
    yield* this.calls.stream(images.record, images);
  }

  /** The prompt through the caller's input guardrails (masked, or the call refused). */
  private async guarded(principal: Principal, call: PreparedImageCall, meta: ImageCallMeta) {
    if (!this.deps.guardrails) return { call, meta };
    const g = await this.deps.guardrails.input(principal, call.model.id, [call.request.prompt], meta);
    return { call: { ...call, request: { ...call.request, prompt: g.texts[0] ?? call.request.prompt } }, meta: g.meta };
  }
}

/**
 * One image call on the routed path. It pays up front: the full price is reserved before the call in one
 * conditional write (never past the limit); the images delivered are kept and the rest is given back.
 */
class ImageCall implements CallPlan<ImageModelPort, ImageResult, ImageStreamPart> {
  readonly operation = 'generate_content';
  private reserved = 0;
  private images = 0;
  private usage?: ImageUsage;

  constructor(
    private readonly deps: ImageGenerationDeps,
    readonly record: UsageRecord,
    private readonly prepared: PreparedImageCall,
  ) {}

  async admit(): Promise<void> {
    const cost = imageCost(this.prepared.model, this.prepared.request.n);
    await this.deps.billing?.reserve(this.record.principal, cost, 'images', { requestId: this.record.meta.requestId });
    this.reserved = this.deps.billing ? cost : 0;
  }

  /** Keeps the price of the images delivered (whatever ended the call) and gives back the rest of the reservation. */
  async settle(): Promise<number> {
    const credits = imageCost(this.prepared.model, this.images);
    const unused = this.reserved - credits;
    this.reserved = 0;
    if (unused > 0)
      await this.deps.billing?.refund(this.record.principal, unused, 'images refund', { requestId: this.record.meta.requestId });
    return credits;
  }

  call(a: Attempt): Promise<ImageResult> {
    return a.port.generate(this.upstreamRequest(a), this.record.meta);
  }

  keepAnswer(result: ImageResult): AttemptAnswer {
    this.images = result.images.length;
    return this.counted(result.usage, result.warnings);
  }

  open(a: Attempt): AsyncIterator<ImageStreamPart> {
    return this.partsOf(a)[Symbol.asyncIterator]();
  }

  notePart(part: ImageStreamPart): void {
    if (part.type === 'finish') this.counted(part.usage, part.warnings);
    if (part.type === 'image') this.images++;
  }

  streamAnswer(): AttemptAnswer {
    return tokensOf(this.usage);
  }

  /** One deployment's parts: its own stream, or its finished images as parts when it cannot stream. */
  private async *partsOf(a: Attempt): AsyncGenerator<ImageStreamPart> {
    const request = this.upstreamRequest(a);
    if (a.port.stream) {
      yield* a.port.stream(request, this.record.meta);
      return;
    }
    const result = await a.port.generate(request, this.record.meta);
    for (const image of result.images) yield { type: 'image', image };
    yield { type: 'finish', warnings: result.warnings, usage: result.usage };
  }

  private upstreamRequest(a: Attempt) {
    return { ...this.prepared.request, model: a.deployment.upstreamModel };
  }

  private counted(usage: ImageUsage | undefined, warnings: Warning[]): AttemptAnswer {
    this.usage = usage;
    this.record.warnings = warnings;
    this.record.tokens = tokensOf(usage);
    return tokensOf(usage);
  }
}

/** Token counts for the usage row and the observer (traces), when the upstream reported them. */
function tokensOf(usage: ImageUsage | undefined): { inputTokens?: number; outputTokens?: number } {
  return usage ? { inputTokens: usage.inputTextTokens + usage.inputImageTokens, outputTokens: usage.outputTokens } : {};
}
