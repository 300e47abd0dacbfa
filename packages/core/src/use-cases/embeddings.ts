import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import { shortenedVector, type EmbeddingInput, type EmbeddingRequest, type EmbeddingResult } from '../embedding';
import { GatewayError, invalid } from '../errors';
import type { EmbeddingModelPort } from '../ports/embedding-model.port';
import { estimateTextTokens } from '../token-estimate';
import type { Warning } from '../warnings';
import type { RoutedCallDeps } from './deployment-selection';
import { MeteredUseCase, meteredAnswer, type Metered, type MeteredKindSpec } from './metered-call';
import type { RoutedCallMeta } from './usage-record';
import { cachePolicyFor, type CacheStatus } from '../response-cache';
import { MeteredCacheCall, recordCacheHit, type CachedCallMeta, type MeteredCacheDeps } from './metered-response-cache';
import type { Guardrails } from './guardrails';

/** OpenAI's limits, which every embeddings route applies before any upstream is called. */
export const EMBEDDING_LIMITS = Object.freeze({
  /** items in one request */
  maxInputs: 2048,
  /** tokens in one input */
  maxTokensPerInput: 8192,
  /** tokens in the whole request */
  maxTotalTokens: 300_000,
  /** the longest vector a caller may ask for */
  maxDimensions: 4096,
});

/** How the caller's format names the fields the limits are about (a 400 names the field the caller sent). */
export interface EmbeddingFieldNames {
  input: string;
  dimensions: string;
}

export type EmbeddingCommand = Omit<EmbeddingRequest, 'model'> & { model: ModelSpec };

export interface EmbeddingAnswer {
  /** one per input, in input order, each of the requested dimensions */
  embeddings: number[][];
  /** input tokens: the upstream's count, else the gateway's (estimated) */
  usage: { inputTokens: number; estimated: boolean };
  warnings: Warning[];
  /** what the response cache did, for models that have one (`hit` only when every input was cached) */
  cache?: CacheStatus;
}

export interface EmbeddingProviderLookup {
  embedding(providerId: string): EmbeddingModelPort | undefined;
}

export interface EmbeddingsDeps extends RoutedCallDeps {
  providers: EmbeddingProviderLookup;
  /** the response cache, per input item, for models whose policy turns it on */
  cache?: MeteredCacheDeps;
  /** the caller's input guardrails, run on the text inputs before the cache and the upstream (docs/guardrails.md) */
  guardrails?: Guardrails;
}

/** One input's cache entry: its vector as the caller receives it (already cut to `dimensions`) and its tokens. */
interface CachedVector {
  v: number[];
  t: number;
}

const tokensOf = (input: EmbeddingInput) => (typeof input === 'string' ? estimateTextTokens(input) : input.length);

/** What the request's inputs weigh, counted by the gateway: token arrays exactly, texts estimated. */
function estimateTokens(inputs: readonly EmbeddingInput[]): Metered {
  const inputTokens = inputs.reduce((n, i) => n + tokensOf(i), 0);
  return { usage: { inputTokens }, estimated: inputs.some((i) => typeof i === 'string') };
}

const EMBED: MeteredKindSpec<EmbeddingModelPort, EmbeddingRequest, EmbeddingResult> = {
  kind: 'embedding',
  operation: 'embeddings',
  call: (port, request, ctx) => port.embed(request, ctx),
  measure: (answer) => (answer.usage ? meteredAnswer({ inputTokens: answer.usage.inputTokens }, false, answer) : undefined),
  estimate: (request) => estimateTokens(request.inputs),
};

/**
 * Embeddings: the vendor limits checked before any upstream call, then the routed metered call (metered-call.ts). The
 * answer is what the caller asked for whatever the upstream sent: one vector per input, in order, each cut to the
 * requested dimensions and renormalised where the upstream did not.
 */
export class Embeddings extends MeteredUseCase<EmbeddingModelPort, EmbeddingRequest, EmbeddingResult> {
  constructor(private readonly deps: EmbeddingsDeps) {
    super(deps, (p) => deps.providers.embedding(p), EMBED);
  }

  async embed(principal: Principal, command: EmbeddingCommand, meta: CachedCallMeta, names: EmbeddingFieldNames): Promise<EmbeddingAnswer> {
    checkEmbeddingCommand(command, names);
    if (this.deps.guardrails) ({ command, meta } = await guardedInputs(this.deps.guardrails, principal, command, meta));
    const policy = this.deps.cache && cachePolicyFor(this.deps.catalogue, principal, command.model);
    if (!policy) return await this.embedUpstream(principal, command, meta);
    const cache = new MeteredCacheCall(this.deps.cache!, 'embedding', principal, command.model, policy, meta.cacheControl);
    // every setting that changes a vector; the caller's `user` does not, and the encoding is applied after the cache
    const { inputs, dimensions, taskType, title } = command;
    const keys = inputs.map((input) => cache.key({ input, dimensions, taskType, title }));
    const found = (await cache.lookup(keys)).map((v) => (v === undefined ? undefined : (JSON.parse(v) as CachedVector)));
    const missing = inputs.flatMap((_, i) => (found[i] ? [] : [i]));
    const hits = found.filter((f): f is CachedVector => f !== undefined);
    const fresh = missing.length
      ? await this.embedUpstream(principal, { ...command, inputs: missing.map((i) => inputs[i]!) }, meta)
      : undefined;
    if (fresh) {
      const entries = missing.map((i, j) => ({
        key: keys[i]!,
        value: JSON.stringify({ v: fresh.embeddings[j], t: tokensOf(inputs[i]!) }),
      }));
      await cache.store(entries);
    }
    const hitTokens = hits.reduce((n, h) => n + h.t, 0);
    if (hits.length)
      await recordCacheHit(this.deps, { principal, model: command.model, meta, usage: { inputTokens: hitTokens, estimated: true } });
    const embeddings: number[][] = [];
    let j = 0;
    found.forEach((f) => embeddings.push(f ? f.v : fresh!.embeddings[j++]!));
    return {
      embeddings,
      usage: {
        inputTokens: (fresh?.usage.inputTokens ?? 0) + hitTokens,
        estimated: fresh ? fresh.usage.estimated || hits.length > 0 : true,
      },
      warnings: fresh?.warnings ?? [],
      cache: cache.status(missing.length === 0),
    };
  }

  /** One upstream call for `command`'s inputs (the routed metered call), its vectors cut to the requested dimensions. */
  private async embedUpstream(principal: Principal, command: EmbeddingCommand, meta: RoutedCallMeta): Promise<EmbeddingAnswer> {
    const { model, ...rest } = command;
    const request: EmbeddingRequest = { ...rest, model: model.id };
    const result = await this.calls.answer(principal, model, request, meta);
    if (result.embeddings.length !== command.inputs.length)
      throw new GatewayError(
        'upstream_malformed_response',
        `The upstream answered ${result.embeddings.length} embeddings for ${command.inputs.length} inputs.`,
      );
    const counted = EMBED.measure(result, request) ?? EMBED.estimate(request);
    return {
      embeddings:
        command.dimensions === undefined ? result.embeddings : result.embeddings.map((v) => shortenedVector(v, command.dimensions)),
      usage: { inputTokens: counted.usage.inputTokens ?? 0, estimated: counted.estimated === true },
      warnings: result.warnings,
    };
  }
}

/** The vendor limits, each refused with a 400 naming the field as the caller's format spells it. */
export function checkEmbeddingCommand(command: Pick<EmbeddingCommand, 'inputs' | 'dimensions'>, names: EmbeddingFieldNames): void {
  const { inputs, dimensions } = command;
  const L = EMBEDDING_LIMITS;
  if (inputs.length === 0) throw invalid('invalid_input', `"${names.input}" must hold at least one input.`, names.input);
  if (inputs.length > L.maxInputs)
    throw invalid('too_many_inputs', `"${names.input}" may hold at most ${L.maxInputs} inputs; it has ${inputs.length}.`, names.input);
  let total = 0;
  inputs.forEach((input, i) => {
    if (input.length === 0)
      throw invalid('invalid_input', `"${names.input}" item ${i} is empty: every input needs text or tokens.`, names.input);
    const tokens = tokensOf(input);
    if (tokens > L.maxTokensPerInput)
      throw invalid(
        'input_too_long',
        `"${names.input}" item ${i} has about ${tokens} tokens; at most ${L.maxTokensPerInput} are allowed.`,
        names.input,
      );
    total += tokens;
  });
  if (total > L.maxTotalTokens)
    throw invalid(
      'input_too_long',
      `"${names.input}" has about ${total} tokens in all; at most ${L.maxTotalTokens} per request.`,
      names.input,
    );
  if (dimensions !== undefined && (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > L.maxDimensions))
    throw invalid('invalid_dimensions', `"${names.dimensions}" must be an integer from 1 to ${L.maxDimensions}.`, names.dimensions);
}

/** The text inputs through the input guardrails (token-array inputs are not text and pass as they are). */
async function guardedInputs(guardrails: Guardrails, principal: Principal, command: EmbeddingCommand, meta: CachedCallMeta) {
  const at = command.inputs.flatMap((input, i) => (typeof input === 'string' ? [i] : []));
  const texts = at.map((i) => command.inputs[i] as string);
  const guarded = await guardrails.input(principal, command.model.id, texts, meta);
  const inputs = [...command.inputs];
  at.forEach((i, k) => (inputs[i] = guarded.texts[k]!));
  return { command: { ...command, inputs }, meta: guarded.meta };
}
