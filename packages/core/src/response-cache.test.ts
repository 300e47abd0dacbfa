import { ModelCatalogue, type ModelSpec } from './catalogue';
import {
  cacheDirectives,
  cachePolicyFor,
  responseCacheKey,
  storableResult,
  storableStream,
  textCacheKey,
  uncachedRequest,
  type CacheConfig,
} from './response-cache';
import type { TextRequest, TextStreamPart } from './text';

const alice = { accountId: 'acct-a', keyId: 'key-1' };
const base: TextRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
const policy: CacheConfig = { ttlSeconds: 60 };
const key = (r: TextRequest, who = alice, p = policy) => textCacheKey(who, p, 'm', r);

describe('response cache policy', () => {
  const cached: ModelSpec = { id: 'own', kind: 'text', deployments: [], cache: { ttlSeconds: 5 } };
  const plain: ModelSpec = { id: 'plain', kind: 'text', deployments: [] };
  const catalogue = new ModelCatalogue(
    [cached, plain],
    [
      { name: 'g', models: ['*'], cache: { ttlSeconds: 99, scope: 'key' } },
      { name: 'none', models: ['*'] },
    ],
  );

  it("takes the model's own cache over its group's, the group's when the model sets none, else none", () => {
    expect(cachePolicyFor(catalogue, { group: 'g' }, cached)).toEqual({ ttlSeconds: 5 });
    expect(cachePolicyFor(catalogue, { group: 'g' }, plain)).toEqual({ ttlSeconds: 99, scope: 'key' });
    expect(cachePolicyFor(catalogue, { group: 'none' }, plain)).toBeUndefined();
  });
});

describe('text cache key', () => {
  it('is the same for the same tenant and request whatever the volatile fields and field order say', () => {
    const noisy: TextRequest = { user: 'u-7', ...base, model: 'alias-of-m' };
    expect(key(noisy)).toBe(key(base));
    expect(
      key({ ...base, native: { dialect: 'openai-chat', body: { stream: true, user: 'x', metadata: { a: 1 } }, unread: ['metadata'] } }),
    ).toBe(key({ ...base, native: { dialect: 'openai-chat', body: {}, unread: [] } }));
  });

  it('differs per account, and per key only with scope key', () => {
    const bob = { accountId: 'acct-b', keyId: 'key-1' };
    const sibling = { accountId: 'acct-a', keyId: 'key-2' };
    expect(key(base, bob)).not.toBe(key(base));
    expect(key(base, sibling)).toBe(key(base));
    expect(key(base, sibling, { ttlSeconds: 1, scope: 'key' })).not.toBe(key(base, alice, { ttlSeconds: 1, scope: 'key' }));
  });

  it('differs with every answer-changing setting, and with unread native fields the canonical request lacks', () => {
    const variants: TextRequest[] = [
      { ...base, system: 's' },
      { ...base, temperature: 0 },
      { ...base, maxOutputTokens: 5 },
      { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi!' }] }] },
      { ...base, responseFormat: { type: 'json' } },
      { ...base, native: { dialect: 'anthropic-messages', body: { context_management: { edits: [] } }, unread: ['context_management'] } },
      { ...base, native: { dialect: 'anthropic-messages', body: {}, headers: { 'anthropic-beta': 'x' } } },
    ];
    const keys = new Set([key(base), ...variants.map((v) => key(v))]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('names the kind, so text, embeddings and rerank entries never collide', () => {
    expect(responseCacheKey('embedding', 'account:a', 'm', 'x')).not.toBe(responseCacheKey('rerank', 'account:a', 'm', 'x'));
    expect(responseCacheKey('embedding', 'account:a', 'm', 'x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('what is never cached', () => {
  it('skips temperature above 0 unless anyTemperature; unset and 0 are cacheable', () => {
    expect(uncachedRequest(base, policy)).toBeUndefined();
    expect(uncachedRequest({ ...base, temperature: 0 }, policy)).toBeUndefined();
    expect(uncachedRequest({ ...base, temperature: 0.7 }, policy)).toBe('temperature');
    expect(uncachedRequest({ ...base, temperature: 0.7 }, { ...policy, anyTemperature: true })).toBeUndefined();
  });

  it('skips declared tools unless toolCalls, and Responses requests with store: true', () => {
    const tools = { ...base, tools: [{ name: 'f', parameters: {} }] };
    expect(uncachedRequest(tools, policy)).toBe('tools');
    expect(uncachedRequest(tools, { ...policy, toolCalls: true })).toBeUndefined();
    const stored = (store: unknown) => ({ ...base, native: { dialect: 'openai-responses', body: store === undefined ? {} : { store } } });
    expect(uncachedRequest(stored(true), policy)).toBe('store');
    expect(uncachedRequest(stored(false), policy)).toBeUndefined();
    expect(uncachedRequest(stored(undefined), policy)).toBeUndefined();
  });

  it('stores only complete answers: no length, content-filter or error ends, no tool calls without toolCalls', () => {
    const text = [{ type: 'text' as const, text: 'ok' }];
    expect(storableResult({ finishReason: 'stop', content: text }, policy)).toBe(true);
    for (const finishReason of ['length', 'content-filter', 'error', 'other'] as const)
      expect(storableResult({ finishReason, content: text }, policy)).toBe(false);
    const call = [{ type: 'tool-call' as const, id: 'c', name: 'f', arguments: '{}' }];
    expect(storableResult({ finishReason: 'tool-calls', content: call }, policy)).toBe(false);
    expect(storableResult({ finishReason: 'tool-calls', content: call }, { ...policy, toolCalls: true })).toBe(true);
  });

  it('stores a stream only when it ended with a complete finish part', () => {
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    const parts: TextStreamPart[] = [{ type: 'text-delta', delta: 'ok' }];
    expect(storableStream(parts, policy)).toBe(false);
    expect(storableStream([...parts, { type: 'finish', finishReason: 'stop', usage }], policy)).toBe(true);
    expect(storableStream([...parts, { type: 'finish', finishReason: 'content-filter', usage }], policy)).toBe(false);
  });
});

describe('Cache-Control', () => {
  it('reads no-cache and no-store, case and spacing aside, and ignores the rest', () => {
    expect(cacheDirectives(undefined)).toEqual({});
    expect(cacheDirectives('No-Cache')).toEqual({ noCache: true });
    expect(cacheDirectives('max-age=0, no-store')).toEqual({ noStore: true });
  });
});
