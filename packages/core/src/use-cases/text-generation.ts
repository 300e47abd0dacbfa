import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import type { TextModelPort } from '../ports/text-model.port';
import type { TextRequest, TextResult, TextStreamPart } from '../text';
import { estimateInputTokens } from '../token-estimate';
import type { CircuitState } from './circuit-breaker';
import type { RoutedCallDeps } from './deployment-selection';
import { resolveModel } from './resolve-model';
import { RoutedCalls } from './routed-call';
import type { Warning } from '../warnings';
import type { AccountResourcesPolicy } from '../account-resources';
import type { HostedToolsPolicy } from '../hosted-tools';
import { ModerationStep, NO_MODERATOR, type TextModerator } from './text-moderation';
import type { CacheDirectives, CacheStatus } from '../response-cache';
import type { ResponseCache } from './response-cache';
import type { Guardrails } from './guardrails';
import type { GuardrailHit } from '../guardrails/guardrail';
import { TextGuardrails } from './guardrails-text';
import { forwardingOffer, type StreamForwarding } from '../stream-forwarding';
import type { HostedMcp } from './hosted-mcp';
import { TextCall, upstreamRequest } from './text-call';

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
