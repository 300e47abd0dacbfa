/**
 * The response cache's rules, pure: which policy applies to a call, what a cache key is made of, and which requests
 * and answers are never cached (docs/cache.md). use-cases/response-cache.ts applies them around the routed call.
 */
import { createHash } from 'node:crypto';
import type { Principal } from './auth';
import type { ModelCatalogue, ModelSpec } from './catalogue';
import type { FinishReason, TextRequest, TextResult, TextStreamPart } from './text';
import { passes, type ModerationReport } from './text-moderation';

/** `cache` on a model or a group of the config file: the model's wins. */
export interface CacheConfig {
  ttlSeconds: number;
  /** whose answers an entry serves: the account's keys together (default), or the one key */
  scope?: 'account' | 'key';
  /** requests with `temperature` above 0 are cached too */
  anyTemperature?: boolean;
  /** requests that declare tools are cached too (their answers may call tools) */
  toolCalls?: boolean;
}

/** What the cache did for one call, as the `x-gateway-cache` header says it. */
export type CacheStatus = 'hit' | 'miss' | 'bypass';

/** The client's `Cache-Control` directives the cache obeys: `no-cache` skips the lookup, `no-store` skips both. */
export interface CacheDirectives {
  noCache?: boolean;
  noStore?: boolean;
}

/** `Cache-Control` header text → the directives the cache obeys (unknown directives are ignored, as HTTP says). */
export function cacheDirectives(header: string | undefined): CacheDirectives {
  const names = new Set((header ?? '').split(',').map((d) => d.split('=')[0]!.trim().toLowerCase()));
  return { ...(names.has('no-cache') ? { noCache: true } : {}), ...(names.has('no-store') ? { noStore: true } : {}) };
}

/** The cache policy of `model` for `principal`: the model's own, else its key's group's, else none (not cached). */
export function cachePolicyFor(catalogue: ModelCatalogue, principal: Pick<Principal, 'group'>, model: ModelSpec): CacheConfig | undefined {
  return model.cache ?? catalogue.group(principal.group)?.cache;
}

/** The tenant an entry belongs to: the account, or the key with `scope: "key"`. One tenant never sees another's entries. */
export function cacheTenant(principal: Pick<Principal, 'accountId' | 'keyId'>, policy: Pick<CacheConfig, 'scope'>): string {
  return policy.scope === 'key' ? `key:${principal.keyId}` : `account:${principal.accountId}`;
}

/**
 * A cache key: the SHA-256 of the kind of call, the tenant, the client-facing model id and the request's
 * answer-changing content, as JSON with sorted object keys (so field order never splits entries). Text, embeddings
 * items and rerank all key their entries with it.
 */
export function responseCacheKey(kind: string, tenant: string, model: string, content: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([kind, tenant, model, sorted(content)]))
    .digest('hex');
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = sorted(v);
  }
  return out;
}

/**
 * Fields of a client's own body (TextRequest.native) that never change the answer: how it is delivered (stream,
 * stream_options), who asked (user, metadata, safety_identifier), where it is kept (store), and the provider's own
 * prompt-cache and service hints. Every other field the canonical request has no place for (`native.unread`: e.g.
 * Anthropic `context_management`, Gemini `cachedContent`, Responses `truncation`) is part of the key.
 */
const VOLATILE_NATIVE_FIELDS = new Set([
  'model',
  'stream',
  'stream_options',
  'user',
  'metadata',
  'safety_identifier',
  'store',
  'prompt_cache_key',
  'prompt_cache_retention',
  'service_tier',
  'background',
]);

/**
 * The part of a text request that decides its answer: the canonical request without the volatile fields (`user`,
 * the model, which the key names as the client called it, and the native body), plus the native body's
 * answer-changing fields the canonical request lacks (its `unread` list) and its dialect headers (e.g.
 * `anthropic-beta`). The in-band moderation stays: it changes the answer's verdicts.
 */
export function textKeyContent(request: TextRequest): unknown {
  const { native, user: _user, model: _model, n, ...rest } = request;
  // n absent is n: 1 (the chat route passes each choice's call n: 1)
  const canonical = n !== undefined && n > 1 ? { ...rest, n } : rest;
  if (!native) return { canonical };
  const extra: Record<string, unknown> = {};
  for (const field of native.unread ?? []) if (!VOLATILE_NATIVE_FIELDS.has(field)) extra[field] = native.body[field];
  return { canonical, native: { dialect: native.dialect, extra, headers: native.headers ?? {} } };
}

/** The key of a text call for `principal` under `policy` (the model id the client called). */
export function textCacheKey(
  principal: Pick<Principal, 'accountId' | 'keyId'>,
  policy: CacheConfig,
  modelId: string,
  request: TextRequest,
): string {
  return responseCacheKey('text', cacheTenant(principal, policy), modelId, textKeyContent(request));
}

/**
 * Why a request is never looked up, or undefined when it may be: `temperature` above 0 (unset is cacheable) unless
 * `anyTemperature`; declared tools unless `toolCalls`; a Responses request with explicit `store: true` (its turn is
 * stored under a new id: served live, though its answer may still be stored; absent `store` is cacheable).
 */
export function uncachedRequest(request: TextRequest, policy: CacheConfig): 'temperature' | 'tools' | 'store' | undefined {
  if ((request.temperature ?? 0) > 0 && !policy.anyTemperature) return 'temperature';
  if ((request.tools?.length || request.hostedTools?.length) && !policy.toolCalls) return 'tools';
  if (request.native?.dialect === 'openai-responses' && request.native.body.store === true) return 'store';
  return undefined;
}

/** Whether a request that bypassed the lookup may still store its answer (only `store: true` and `no-cache` do). */
export function storableAfterBypass(reason: ReturnType<typeof uncachedRequest>): boolean {
  return reason === 'store';
}

/**
 * Whether an answer may be stored: a complete one only (`stop`; `tool-calls` with `toolCalls`), never an error, a
 * cut-short (`length`) or content-filtered answer, nor one the in-band moderation flagged or could not judge.
 */
export function storableResult(result: Pick<TextResult, 'finishReason' | 'content' | 'moderation'>, policy: CacheConfig): boolean {
  const calls = result.content.some((p) => p.type === 'tool-call');
  return storableEnd(result.finishReason, calls, result.moderation, policy) && result.content.length > 0;
}

/** The same rule for a recorded stream: it ended with such a finish part. */
export function storableStream(parts: readonly TextStreamPart[], policy: CacheConfig): boolean {
  const finish = parts[parts.length - 1];
  if (finish?.type !== 'finish') return false;
  return storableEnd(
    finish.finishReason,
    parts.some((p) => p.type === 'tool-call-start'),
    finish.moderation,
    policy,
  );
}

function storableEnd(reason: FinishReason, calls: boolean, moderation: ModerationReport | undefined, policy: CacheConfig): boolean {
  if (moderation && !(passes(moderation.input) && passes(moderation.output))) return false;
  if (calls) return policy.toolCalls === true && (reason === 'tool-calls' || reason === 'stop');
  return reason === 'stop';
}
