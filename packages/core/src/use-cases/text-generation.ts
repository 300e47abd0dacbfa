import type { Principal } from '../auth';
import type { Deployment, ModelSpec } from '../catalogue';
import type { AttemptAnswer } from '../ports/routing-observer.port';
import type { TextModelPort } from '../ports/text-model.port';
import type { TextRequest, TextResult, TextStreamPart, Usage } from '../text';
import { estimateInputTokens, estimateTextTokens } from '../token-estimate';
import type { CircuitState } from './circuit-breaker';
import type { DeploymentAttempt, RoutedCallDeps } from './deployment-selection';
import { textCost } from '../pricing';
import { resolveModel } from './resolve-model';
import { RoutedCalls, type CallEnd, type CallPlan } from './routed-call';
import type { RowTokens, UsageRecord } from './usage-record';
import type { Warning } from '../warnings';
import { accountResourcesFor, DEFAULT_ACCOUNT_RESOURCES_POLICY, type AccountResourcesPolicy } from '../account-resources';
import { DEFAULT_HOSTED_TOOLS_POLICY, hostedToolsFor, type HostedToolsPolicy } from '../hosted-tools';
import { nativeBody } from '../native-request';
import { ModerationStep, NO_MODERATOR, type TextModerator } from './text-moderation';
import type { CacheDirectives, CacheStatus } from '../response-cache';
import type { ResponseCache } from './response-cache';
import type { Guardrails } from './guardrails';
import type { GuardrailHit } from '../guardrails/guardrail';
import { TextGuardrails } from './guardrails-text';
import { forwardingOffer, type StreamForwarding } from '../stream-forwarding';
import type { HostedMcp } from './hosted-mcp';

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
  /** the client's `Cache-Control` directives for the response cache (use-cases/response-cache.ts) */
  cacheControl?: CacheDirectives;
  /** told what the response cache did (hit, miss, bypass) before the first part or the result; models with a cache only */
  onCache?(status: CacheStatus): void;
  /** set by the guardrails layer for the call inside it: where the usage row finds the hits (usage-record.ts) */
  guardrailHits?: GuardrailHit[];
  /** set by the guardrails layer: the usage row waits for the output guardrails, so it carries their hits */
  rowAfter?: Promise<void>;
  /** a streaming adapter's offer to relay the upstream's own events (stream-forwarding.ts); layers that read parts withdraw it */
  forward?: StreamForwarding;
}

export interface TextGenerationDeps extends RoutedCallDeps {
  providers: ProviderLookup;
  /** a charge the store refused: reported, never thrown at the caller; it goes with the usage row (`charge`) instead */
  onSettleFailure?(failure: { requestId: string; accountId: string; credits: number; error: unknown }): void;
  /** runs a request's in-band `moderation` for upstreams that do not (text-moderation.ts); without it they are refused */
  moderator?: TextModerator;
  /** the response cache, the layer just around the routed call (use-cases/response-cache.ts) */
  responseCache?: ResponseCache;
  /** the caller's guardrails, the outer layer of every call (guardrails-text.ts) */
  guardrails?: Guardrails;
  /** the gateway's loop for hosted MCP tools of registered servers, outside every other layer (use-cases/hosted-mcp.ts) */
  hostedMcp?: HostedMcp;
}

type Attempt = DeploymentAttempt<TextModelPort>;
/** the upstream's result, and every warning of the call (the request's for this deployment, then the result's) */
type TextAnswer = { result: TextResult; warnings: Warning[] };

/**
 * Text generation: resolve the model for the caller and make the routed call (routed-call.ts: deployments in
 * order, failing over on retryable errors until the first byte is committed, a breaker per deployment, one usage row).
 */
export class TextGeneration {
  private readonly calls: RoutedCalls<TextModelPort>;
  /** the calls the response cache already wraps */
  private readonly insideCache = new WeakSet<TextCallMeta>();

  constructor(private readonly deps: TextGenerationDeps) {
    this.calls = new RoutedCalls(deps, (p) => deps.providers.text(p));
  }

  /** Checks the model before anything else, so wire adapters can fail fast. */
  resolve(principal: Principal, modelId: unknown): ModelSpec {
    return resolveModel(this.deps.catalogue, principal, modelId, 'text');
  }

  /** A deployment's breaker state, for health pages and tests. */
  circuitState(provider: string, upstreamModel: string): CircuitState {
    return this.calls.selector.circuitState(provider, upstreamModel);
  }

  /** Every deployment's breaker seen so far (metrics). */
  circuitStates(): Array<{ provider: string; upstreamModel: string; state: CircuitState }> {
    return this.calls.selector.circuitStates();
  }

  async generate(principal: Principal, request: TextRequest, meta: TextCallMeta): Promise<TextResult> {
    const model = meta.model ?? this.resolve(principal, request.model);
    // one fully layered call per model round: input guardrails read each round's tool results, no round is cached
    const loop = this.deps.hostedMcp?.plan(principal, request, { ...meta, model });
    if (loop) return loop.generate((r, m) => this.generate(principal, r, m));
    const guard = this.guardrailsLayer(principal, request, { ...meta, model });
    if (guard) return guard.layer.generate(request, (r, rowAfter) => this.generate(principal, r, { ...guard.meta, rowAfter }));
    const cache = this.cacheLayer(principal, model, meta);
    if (cache) return cache.layer.generate(request, (r) => this.generate(principal, r, cache.meta));
    const moderation = this.moderationStep(principal, request, meta);
    const call = new TextCall(this.deps, this.calls.record(principal, model, meta), request, meta, moderation);
    const { result, warnings } = await this.calls.answer(call.record, call);
    return { ...result, model: model.id, warnings };
  }

  /**
   * Streams canonical parts. Until the first part is in hand a retryable failure moves on to the next
   * deployment; after it, a failure ends the stream with the error (the caller has seen bytes).
   * Usage is logged when the stream ends, fails or is abandoned.
   */
  async *stream(principal: Principal, request: TextRequest, meta: TextCallMeta): AsyncGenerator<TextStreamPart> {
    const model = meta.model ?? this.resolve(principal, request.model);
    const loop = this.deps.hostedMcp?.plan(principal, request, { ...meta, model });
    if (loop) return yield* loop.stream((r, m) => this.stream(principal, r, m));
    const guard = this.guardrailsLayer(principal, request, { ...meta, model });
    if (guard) return yield* guard.layer.stream(request, (r) => this.stream(principal, r, guard.meta));
    const cache = this.cacheLayer(principal, model, meta);
    if (cache) return yield* cache.layer.stream(request, (r) => this.stream(principal, r, cache.meta));
    const moderation = this.moderationStep(principal, request, meta);
    const layers = { guarded: Boolean(meta.guardrailHits), cached: this.insideCache.has(meta), moderated: Boolean(moderation) };
    const inner = { ...meta, forward: forwardingOffer(meta.forward, layers) };
    const call = new TextCall(this.deps, this.calls.record(principal, model, inner), request, inner, moderation);
    yield* this.calls.stream(call.record, call);
  }

  /** The caller's guardrails around the call (input first, output after), or none; the inner call records their hits. */
  private guardrailsLayer(principal: Principal, request: TextRequest, meta: TextCallMeta & { model: ModelSpec }) {
    const guardrails = this.deps.guardrails;
    if (!guardrails || meta.guardrailHits) return undefined;
    const specs = guardrails.of(principal);
    if (specs.length === 0) return undefined;
    const call = { ...meta, principal, model: request.model, hits: [] };
    return { layer: new TextGuardrails(guardrails, specs, call, this.deps.usage), meta: { ...meta, guardrailHits: call.hits } };
  }

  /** The response cache around the routed call when the model has one; the call inside it goes straight to the route. */
  private cacheLayer(principal: Principal, model: ModelSpec, meta: TextCallMeta) {
    if (this.insideCache.has(meta)) return undefined;
    const layer = this.deps.responseCache?.layer(principal, model, meta);
    if (!layer) return undefined;
    const inner: TextCallMeta = { ...meta, model };
    this.insideCache.add(inner);
    return { layer, meta: inner };
  }

  /** The gateway's in-band moderation of the request, for an upstream that does not run it (text-moderation.ts). */
  private moderationStep(principal: Principal, request: TextRequest, meta: TextCallMeta): ModerationStep | undefined {
    if (!request.moderation) return undefined;
    return new ModerationStep(this.deps.moderator ?? NO_MODERATOR, principal, request.moderation, request, meta);
  }

  /**
   * The request's input tokens: counted by the first deployment whose upstream can count (failing over on
   * retryable errors, like generation), else estimated here. Free: no quota check, no usage row.
   */
  async countTokens(principal: Principal, request: TextRequest, meta: TextCallMeta): Promise<{ inputTokens: number; estimated: boolean }> {
    const model = meta.model ?? this.resolve(principal, request.model);
    const counted = await this.calls.free(model, meta, 'count_tokens', (a) =>
      a.port.countTokens?.(upstreamRequest(this.deps.providers, request, a).request, meta),
    );
    if (counted !== undefined) return { inputTokens: counted, estimated: false };
    return { inputTokens: estimateInputTokens(request), estimated: true };
  }
}

/** One text call on the routed path: its request per deployment, what it delivered, and what it is charged. */
class TextCall implements CallPlan<TextModelPort, TextAnswer, TextStreamPart> {
  readonly operation = 'chat';
  private usage?: Usage;
  private finishReason?: string;
  /** the warnings known before the first part, of the deployment last opened */
  private before: Warning[] = [];
  private announcedInput?: number;
  private delivered = '';

  constructor(
    private readonly deps: TextGenerationDeps,
    readonly record: UsageRecord,
    private readonly request: TextRequest,
    private readonly meta: TextCallMeta,
    private readonly moderation?: ModerationStep,
  ) {}

  async admit(): Promise<void> {
    await this.deps.billing?.precheck(this.record.principal);
  }

  async call(a: Attempt): Promise<TextAnswer> {
    const upstream = upstreamRequest(this.deps.providers, this.request, a);
    const generate = () => a.port.generate(upstream.request, this.meta);
    const result = await (this.moderation && !a.port.moderatesInBand ? this.moderation.generate(generate) : generate());
    return { result, warnings: [...upstream.warnings, ...result.warnings] };
  }

  keepAnswer({ result, warnings }: TextAnswer): AttemptAnswer {
    this.counted(result.usage);
    this.record.upstreamRequestId = result.upstreamRequestId;
    this.record.warnings = warnings;
    return answerOf(result.usage, result.finishReason, result.id, result.model);
  }

  open(a: Attempt): AsyncIterator<TextStreamPart> {
    const prepared = upstreamRequest(this.deps.providers, this.request, a);
    this.before = prepared.warnings;
    const open = () => a.port.stream(prepared.request, this.meta);
    return (this.moderation && !a.port.moderatesInBand ? this.moderation.stream(open) : open())[Symbol.asyncIterator]();
  }

  committed(): void {
    this.record.warnings = this.before;
    if (this.before.length) this.meta.onWarnings?.(this.before);
    this.admitPriced();
  }

  notePart(part: TextStreamPart): void {
    this.record.delivered();
    if (part.type === 'finish') {
      this.counted(part.usage);
      this.finishReason = part.finishReason;
      this.record.warnings = [...this.before, ...(part.warnings ?? [])];
      this.record.upstreamRequestId = part.upstreamRequestId;
    }
    if (part.type === 'input-usage') this.announcedInput = part.usage.inputTokens;
    if (part.type === 'text-delta' || part.type === 'reasoning-delta') this.delivered += part.delta;
    if (part.type === 'forwarded-events') this.delivered += part.generated;
  }

  /**
   * What was delivered is charged: the upstream's usage if it came, else its input count (or the estimate) and the
   * delivered text estimated.
   */
  cutShort(): void {
    if (this.usage) return;
    const inputTokens = this.announcedInput ?? estimateInputTokens(this.request);
    const outputTokens = estimateTextTokens(this.delivered);
    this.counted({ inputTokens, outputTokens, totalTokens: inputTokens + outputTokens });
  }

  streamAnswer(): AttemptAnswer {
    return answerOf(this.usage, this.finishReason);
  }

  /**
   * Charges what the call cost (nothing for unpriced models, so the hot path stays free of writes), once per usage
   * row. A charge the store refused is not lost and not thrown at a caller who got the answer: it is reported and
   * goes with the usage row (`charge`), which charges it when written. A failed call is not charged.
   */
  async settle(end: CallEnd): Promise<number | undefined> {
    if (end === 'error' || !this.usage) return undefined;
    const { principal: p, meta } = this.record;
    const credits = textCost(this.record.model, this.usage);
    if (credits <= 0 || !this.deps.billing) return credits;
    try {
      await this.deps.billing.settle(p, credits, 'text', { requestId: meta.requestId, usageRowId: this.record.rowId });
    } catch (error) {
      this.record.charge = credits;
      this.deps.onSettleFailure?.({ requestId: meta.requestId, accountId: p.accountId, credits, error });
    }
    return credits;
  }

  /**
   * A priced stream is recorded durably before its first byte (status `pending`, the input estimated and charged):
   * if the process dies before the stream ends, recovery writes that row and charges it (usage-log.port.ts).
   */
  private admitPriced(): void {
    const { model, principal: p, meta } = this.record;
    if (!this.deps.usage.pending || !model.pricing) return;
    const inputTokens = estimateInputTokens(this.request);
    const credits = textCost(model, { inputTokens, outputTokens: 0, totalTokens: inputTokens });
    this.deps.usage.pending({
      rowId: this.record.rowId,
      requestId: meta.requestId,
      accountId: p.accountId,
      keyId: p.keyId,
      model: model.id,
      format: meta.format,
      status: 'pending',
      httpStatus: 200,
      inputTokens,
      outputTokens: 0,
      provider: this.record.provider,
      attempts: this.record.attempts,
      credits,
      charge: credits,
    });
  }

  private counted(usage: Usage): void {
    this.usage = usage;
    this.record.tokens = rowTokens(usage);
  }
}

/**
 * The request as one deployment gets it: its model name, only the hosted tools its upstream runs, and the in-band
 * moderation only when its upstream runs it (else the gateway does: text-moderation.ts).
 */
function upstreamRequest(providers: ProviderLookup, request: TextRequest, a: Attempt): { request: TextRequest; warnings: Warning[] } {
  const d: Deployment = a.deployment;
  const policy = providers.hostedToolsPolicy?.(d.provider) ?? DEFAULT_HOSTED_TOOLS_POLICY;
  const hosted = hostedToolsFor(withoutModeration(request, a.port), a.port.hostedToolFormats, policy);
  const resourcesPolicy = providers.accountResourcesPolicy?.(d.provider) ?? DEFAULT_ACCOUNT_RESOURCES_POLICY;
  const safe = accountResourcesFor(hosted.request, resourcesPolicy);
  return {
    request: { ...safe.request, model: d.upstreamModel },
    warnings: [...hosted.warnings, ...safe.warnings],
  };
}

function withoutModeration(request: TextRequest, port: TextModelPort): TextRequest {
  if (!request.moderation || port.moderatesInBand) return request;
  const { moderation: _, ...rest } = request;
  return rest.native && 'moderation' in rest.native.body
    ? { ...rest, native: { ...rest.native, body: nativeBody(rest.native, { moderation: undefined }) } }
    : rest;
}

function rowTokens(usage: Usage): RowTokens {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedTokens: usage.cachedInputTokens,
    cacheWriteTokens: usage.cacheCreationInputTokens,
    reasoningTokens: usage.reasoningTokens,
  };
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
