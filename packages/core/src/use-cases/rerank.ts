import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import { invalid } from '../errors';
import type { RerankModelPort } from '../ports/rerank-model.port';
import type { RerankRequest, RerankResult } from '../rerank';
import { estimateTextTokens } from '../token-estimate';
import type { RoutedCallDeps } from './deployment-selection';
import { MeteredUseCase, meteredAnswer, type KindProviderLookup, type Metered } from './metered-call';
import type { RoutedCallMeta } from './usage-record';
import { cachePolicyFor, type CacheStatus } from '../response-cache';
import { MeteredCacheCall, recordCacheHit, type CachedCallMeta, type MeteredCacheDeps } from './metered-response-cache';

/**
 * What every rerank request is held to before any upstream is called, whatever its format: the tightest of the
 * vendors' limits (Cohere and Voyage take at most 1,000 documents; Cohere caps documents at 4,096 tokens).
 */
export const RERANK_LIMITS = Object.freeze({ maxDocuments: 1000, maxTokensPerDoc: 4096, documentsPerSearchUnit: 100 });

/** A rerank request as the formats decode it (both dialects name these fields alike). */
export type RerankCommand = Omit<RerankRequest, 'model'>;

/** The checks of the limits table; the field named as both dialects spell it. */
export function checkRerankCommand(c: RerankCommand): void {
  if (!c.query.trim()) throw invalid('invalid_query', '"query" must not be empty.', 'query');
  if (c.documents.length === 0) throw invalid('invalid_documents', '"documents" must list at least one document.', 'documents');
  if (c.documents.length > RERANK_LIMITS.maxDocuments)
    throw invalid(
      'too_many_documents',
      `"documents" has ${c.documents.length} items; at most ${RERANK_LIMITS.maxDocuments} are allowed.`,
      'documents',
    );
  if (c.topN !== undefined && c.topN < 1) throw invalid('invalid_top_n', '"top_n" must be at least 1.', 'top_n');
  const cap = c.maxTokensPerDoc;
  if (cap !== undefined && (cap < 1 || cap > RERANK_LIMITS.maxTokensPerDoc))
    throw invalid(
      'invalid_max_tokens_per_doc',
      `"max_tokens_per_doc" must be between 1 and ${RERANK_LIMITS.maxTokensPerDoc}.`,
      'max_tokens_per_doc',
    );
}

/** Cohere's billing rule, used for every upstream: one search unit per query per 100 documents (or fewer). */
export function searchUnitsFor(documents: number): number {
  return Math.max(1, Math.ceil(documents / RERANK_LIMITS.documentsPerSearchUnit));
}

/** What a rerank answer carries besides the ranking: units for the caller's answer and the usage row. */
export interface RerankAnswer extends RerankResult {
  searchUnits: number;
  inputTokens: number;
  /** what the response cache did, for models that have one */
  cache?: CacheStatus;
}

function tokensOf(r: RerankRequest): number {
  return estimateTextTokens(r.query) * r.documents.length + r.documents.reduce((n, d) => n + estimateTextTokens(d), 0);
}

function metered(r: RerankRequest, result?: RerankResult): Metered {
  const searchUnits = result?.usage?.searchUnits ?? searchUnitsFor(r.documents.length);
  const upstreamTokens = result?.usage?.inputTokens;
  return meteredAnswer({ searchUnits, inputTokens: upstreamTokens ?? tokensOf(r) }, upstreamTokens === undefined, result);
}

/**
 * Rerank: the command checked against the limits, then a metered call (metered-call.ts) priced by search units.
 * The ranking is cut to `top_n` here too, so an upstream that ignores it cannot return more.
 */
export class Rerank extends MeteredUseCase<RerankModelPort, RerankRequest, RerankResult> {
  constructor(
    private readonly deps: RoutedCallDeps,
    providers: KindProviderLookup<RerankModelPort>,
    /** the response cache, per request, for models whose policy turns it on */
    private readonly cache?: MeteredCacheDeps,
  ) {
    super(deps, providers, {
      kind: 'rerank',
      operation: 'rerank',
      call: (port, request, ctx) => port.rerank(request, ctx),
      measure: (answer, request) => metered(request, answer),
      estimate: (request) => metered(request),
    });
  }

  async rerank(principal: Principal, model: ModelSpec, command: RerankCommand, meta: CachedCallMeta): Promise<RerankAnswer> {
    checkRerankCommand(command);
    const policy = this.cache && cachePolicyFor(this.deps.catalogue, principal, model);
    if (!policy) return await this.rerankUpstream(principal, model, command, meta);
    const cache = new MeteredCacheCall(this.cache!, 'rerank', principal, model, policy, meta.cacheControl);
    const { query, documents, topN, maxTokensPerDoc } = command;
    const key = cache.key({ query, documents, topN, maxTokensPerDoc });
    const [cached] = await cache.lookup([key]);
    if (cached !== undefined) {
      const answer = JSON.parse(cached) as RerankAnswer;
      await recordCacheHit(this.deps, {
        principal,
        model,
        meta,
        usage: { searchUnits: answer.searchUnits, inputTokens: answer.inputTokens },
      });
      return { ...answer, warnings: [], cache: cache.status(true) };
    }
    const answer = await this.rerankUpstream(principal, model, command, meta);
    const { upstreamRequestId: _id, usage: _usage, ...kept } = answer;
    await cache.store([{ key, value: JSON.stringify({ ...kept, warnings: [] }) }]);
    return { ...answer, cache: cache.status(false) };
  }

  private async rerankUpstream(
    principal: Principal,
    model: ModelSpec,
    command: RerankCommand,
    meta: RoutedCallMeta,
  ): Promise<RerankAnswer> {
    const request = { ...command, model: model.id };
    const result = await this.calls.answer(principal, model, request, meta);
    const m = metered(request, result);
    const inRange = result.results.filter((r) => Number.isInteger(r.index) && r.index >= 0 && r.index < command.documents.length);
    return {
      ...result,
      results: inRange.slice(0, command.topN ?? inRange.length),
      searchUnits: m.usage.searchUnits!,
      inputTokens: m.usage.inputTokens!,
    };
  }
}
