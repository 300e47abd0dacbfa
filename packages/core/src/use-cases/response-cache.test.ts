import { InMemoryResponseCacheStore } from '@gateway/testkit';
import type { Principal } from '../auth';
import { ModelCatalogue, type ModelSpec } from '../catalogue';
import { GatewayError } from '../errors';
import type { TextModelPort } from '../ports/text-model.port';
import type { UsageRow } from '../ports/usage-log.port';
import type { CacheConfig, CacheStatus } from '../response-cache';
import type { TextRequest, TextStreamPart } from '../text';
import type { Billing } from './billing';
import { ResponseCache } from './response-cache';
import { TextGeneration, type TextCallMeta } from './text-generation';

const alice: Principal = { accountId: 'acct-a', keyId: 'key-a', group: 'all' };
const bob: Principal = { accountId: 'acct-b', keyId: 'key-b', group: 'all' };
const request: TextRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
const usage = { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 };

/** A port that counts calls; `hold` makes every call wait until released (single flight without timing). */
function countingPort() {
  const state = { calls: 0, held: [] as Array<() => void>, hold: false, fail: false, ids: 0 };
  const waitTurn = () => (state.hold ? new Promise<void>((r) => state.held.push(r)) : Promise.resolve());
  const port: TextModelPort = {
    async generate() {
      state.calls++;
      const failing = state.fail;
      await waitTurn();
      if (failing) throw new GatewayError('upstream_unavailable', 'down');
      return {
        id: `up-${++state.ids}`,
        model: 'up',
        content: [{ type: 'text', text: 'Hello there' }],
        finishReason: 'stop',
        usage,
        warnings: [],
        upstreamRequestId: 'req-up',
      };
    },
    async *stream() {
      state.calls++;
      await waitTurn();
      if (state.fail) throw new GatewayError('upstream_unavailable', 'down');
      yield { type: 'reasoning-delta', delta: 'thinking' };
      yield { type: 'text-delta', delta: 'Hel' };
      yield { type: 'text-delta', delta: 'lo ' };
      yield { type: 'text-delta', delta: 'there' };
      yield { type: 'tool-call-start', index: 0, id: 'call_up1', name: 'f' };
      yield { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' };
      yield { type: 'finish', finishReason: 'stop', usage, upstreamRequestId: 'req-up' };
    },
  };
  return { port, state };
}

function setup(cache: CacheConfig = { ttlSeconds: 60 }, pricing?: ModelSpec['pricing'], billing?: Billing) {
  const { port, state } = countingPort();
  const rows: UsageRow[] = [];
  const catalogue = new ModelCatalogue(
    [{ id: 'm', kind: 'text', deployments: [{ provider: 'p', upstreamModel: 'up', priority: 0, weight: 1 }], cache, pricing }],
    [{ name: 'all', models: ['*'] }],
  );
  const usageLog = { record: (r: UsageRow) => rows.push(r), flush: async () => {} };
  const store = new InMemoryResponseCacheStore();
  const text = new TextGeneration({
    catalogue,
    providers: { text: () => port },
    usage: usageLog,
    random: () => 0,
    ...(billing ? { billing } : {}),
    responseCache: new ResponseCache({ store, catalogue, usage: usageLog, ...(billing ? { billing } : {}) }),
  });
  return { text, state, rows, store };
}

function meta(extra: Partial<TextCallMeta> = {}) {
  const statuses: CacheStatus[] = [];
  return {
    statuses,
    meta: {
      format: 'openai-chat',
      requestId: 'r',
      signal: new AbortController().signal,
      onCache: (s: CacheStatus) => statuses.push(s),
      ...extra,
    },
  };
}

async function drain(parts: AsyncIterable<TextStreamPart>): Promise<TextStreamPart[]> {
  const out: TextStreamPart[] = [];
  for await (const p of parts) out.push(p);
  return out;
}

describe('response cache around text generation', () => {
  it('answers a second identical call from the cache, for the same account only', async () => {
    const { text, state, rows } = setup();
    const first = meta();
    const second = meta();
    expect((await text.generate(alice, request, first.meta)).content).toEqual([{ type: 'text', text: 'Hello there' }]);
    const hit = await text.generate(alice, request, second.meta);
    expect(hit).toMatchObject({ model: 'm', content: [{ type: 'text', text: 'Hello there' }], usage });
    expect(hit.id).toBeUndefined();
    expect(hit.upstreamRequestId).toBeUndefined();
    expect([first.statuses, second.statuses, state.calls]).toEqual([['miss'], ['hit'], 1]);
    await text.generate(bob, request, meta().meta);
    expect(state.calls).toBe(2);
    expect(rows.map((r) => [r.accountId, r.cacheHit ?? false, r.provider])).toEqual([
      ['acct-a', false, 'p'],
      ['acct-a', true, null],
      ['acct-b', false, 'p'],
    ]);
  });

  it('replays a stream with the same parts and chunking, fresh tool-call ids, no upstream id; and answers a non-streamed call', async () => {
    const { text, state } = setup({ ttlSeconds: 60, toolCalls: true });
    const live = await drain(text.stream(alice, request, meta().meta));
    const m = meta();
    const replay = await drain(text.stream(alice, request, m.meta));
    expect(m.statuses).toEqual(['hit']);
    expect(state.calls).toBe(1);
    expect(replay.map((p) => p.type)).toEqual(live.map((p) => p.type));
    expect(replay.filter((p) => p.type === 'text-delta')).toEqual(live.filter((p) => p.type === 'text-delta'));
    expect(replay.find((p) => p.type === 'reasoning-delta')).toEqual({ type: 'reasoning-delta', delta: 'thinking' });
    const start = replay.find((p) => p.type === 'tool-call-start') as { id: string };
    expect(start.id).toMatch(/^call_/);
    expect(start.id).not.toBe('call_up1');
    expect(replay.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage });
    const whole = await text.generate(alice, request, meta().meta);
    expect(whole.content.filter((p) => p.type === 'text')).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(state.calls).toBe(1);
  });

  it('replays a non-streamed answer as a stream', async () => {
    const { text, state } = setup();
    await text.generate(alice, request, meta().meta);
    const parts = await drain(text.stream(alice, request, meta().meta));
    expect(parts).toEqual([
      { type: 'text-delta', delta: 'Hello there' },
      { type: 'finish', finishReason: 'stop', usage },
    ]);
    expect(state.calls).toBe(1);
  });

  it('bypasses temperature above 0, tools, no-store and no-cache; no-cache still stores', async () => {
    const { text, state } = setup();
    const cases: Array<[TextRequest, Partial<TextCallMeta>]> = [
      [{ ...request, temperature: 0.5 }, {}],
      [{ ...request, tools: [{ name: 'f', parameters: {} }] }, {}],
      [request, { cacheControl: { noStore: true } }],
      [request, { cacheControl: { noCache: true } }],
    ];
    for (const [r, extra] of cases) {
      const m = meta(extra);
      await text.generate(alice, r, m.meta);
      expect(m.statuses).toEqual(['bypass']);
    }
    expect(state.calls).toBe(4);
    const after = meta();
    await text.generate(alice, request, after.meta);
    expect([after.statuses, state.calls]).toEqual([['hit'], 4]);
  });

  it('single flight: identical calls in flight together make one upstream call, the followers hit', async () => {
    const { text, state } = setup();
    state.hold = true;
    const metas = [meta(), meta(), meta()];
    const calls = metas.map((m, i) => (i === 1 ? drain(text.stream(alice, request, m.meta)) : text.generate(alice, request, m.meta)));
    await waitUntil(() => state.held.length === 1);
    state.held.forEach((release) => release());
    await Promise.all(calls);
    expect(state.calls).toBe(1);
    expect(metas.map((m) => m.statuses)).toEqual([['miss'], ['hit'], ['hit']]);
  });

  it('a failed leader lets its followers call themselves', async () => {
    const { text, state } = setup();
    state.hold = true;
    state.fail = true;
    const leader = text.generate(alice, request, meta().meta).catch((e: unknown) => e);
    await waitUntil(() => state.held.length === 1);
    const follower = meta();
    const followed = text.generate(alice, request, follower.meta); // joins the leader at once
    state.fail = false;
    state.hold = false;
    state.held.forEach((release) => release());
    expect(await leader).toBeInstanceOf(GatewayError);
    expect((await followed).content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect([follower.statuses, state.calls]).toEqual([['miss'], 2]);
  });

  it('never stores an answer that did not complete', async () => {
    const { text, state, store } = setup();
    state.fail = true;
    await expect(text.generate(alice, request, meta().meta)).rejects.toThrow('down');
    expect(store.size).toBe(0);
  });

  it('prices a hit at cacheHitMultiplier times the normal price', async () => {
    const { text, rows } = setup({ ttlSeconds: 60 }, { inputPerMillionTokens: 10, outputPerMillionTokens: 20, cacheHitMultiplier: 0.5 });
    await text.generate(alice, request, meta().meta);
    await drain(text.stream(alice, request, meta().meta));
    // 1000 × 10/1M + 500 × 20/1M = 0.02 credits; the hit pays half
    expect(rows.map((r) => [r.cacheHit ?? false, r.credits])).toEqual([
      [false, 0.02],
      [true, 0.01],
    ]);
  });

  it('a priced hit refused for lack of credits writes its error row, as a refused live call does', async () => {
    const account = { broke: false };
    const refusal = new GatewayError('quota_exhausted', 'No credits left.', { code: 'insufficient_credits' });
    const billing = {
      precheck: async () => {
        if (account.broke) throw refusal;
      },
      settle: async () => {},
    } as unknown as Billing;
    const pricing = { inputPerMillionTokens: 10, outputPerMillionTokens: 20, cacheHitMultiplier: 0.5 };
    const { text, rows, state } = setup({ ttlSeconds: 60 }, pricing, billing);
    await text.generate(alice, request, meta().meta);
    account.broke = true;
    for (const call of [() => text.generate(alice, request, meta().meta), () => drain(text.stream(alice, request, meta().meta))])
      await expect(call()).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(state.calls).toBe(1);
    expect(rows.slice(1)).toEqual([
      expect.objectContaining({
        cacheHit: true,
        status: 'error',
        httpStatus: refusal.status,
        errorCode: 'insufficient_credits',
      }),
      expect.objectContaining({
        cacheHit: true,
        status: 'error',
        httpStatus: refusal.status,
        errorCode: 'insufficient_credits',
      }),
    ]);
  });

  it('says nothing and caches nothing for a model without a cache', async () => {
    const { port, state } = countingPort();
    const catalogue = new ModelCatalogue(
      [{ id: 'm', kind: 'text', deployments: [{ provider: 'p', upstreamModel: 'up', priority: 0, weight: 1 }] }],
      [{ name: 'all', models: ['*'] }],
    );
    const usageLog = { record: () => {}, flush: async () => {} };
    const text = new TextGeneration({
      catalogue,
      providers: { text: () => port },
      usage: usageLog,
      responseCache: new ResponseCache({ store: new InMemoryResponseCacheStore(), catalogue, usage: usageLog }),
    });
    const m = meta();
    await text.generate(alice, request, m.meta);
    await text.generate(alice, request, m.meta);
    expect([m.statuses, state.calls]).toEqual([[], 2]);
  });
});

/** A store instances share, with claims as Redis keeps them (SET NX PX, compare-and-delete), counting the waits' checks. */
function sharedStore() {
  const store = new InMemoryResponseCacheStore();
  const claims = new Map<string, string>();
  const seen = { checks: 0 };
  let n = 0;
  return Object.assign(store, {
    seen,
    claims,
    async claim(key: string) {
      if (claims.has(key)) return undefined;
      const token = `t${++n}`;
      claims.set(key, token);
      return token;
    },
    async claimed(key: string) {
      seen.checks++;
      return claims.has(key);
    },
    async release(key: string, token: string) {
      if (claims.get(key) === token) claims.delete(key);
    },
  });
}

describe('single flight across instances (a store with claims)', () => {
  function instances(now: () => number = Date.now) {
    const { port, state } = countingPort();
    const rows: UsageRow[] = [];
    const store = sharedStore();
    const catalogue = new ModelCatalogue(
      [{ id: 'm', kind: 'text', deployments: [{ provider: 'p', upstreamModel: 'up', priority: 0, weight: 1 }], cache: { ttlSeconds: 60 } }],
      [{ name: 'all', models: ['*'] }],
    );
    const usageLog = { record: (r: UsageRow) => rows.push(r), flush: async () => {} };
    const gateway = () =>
      new TextGeneration({
        catalogue,
        providers: { text: () => port },
        usage: usageLog,
        random: () => 0,
        responseCache: new ResponseCache({ store, catalogue, usage: usageLog, now, sharedFlight: { pollMs: 1 } }),
      });
    return { a: gateway(), b: gateway(), state, store };
  }

  it("a call on another instance waits for the leader's entry: one upstream call, the follower hits", async () => {
    const { a, b, state, store } = instances();
    state.hold = true;
    const leader = meta();
    const follower = meta();
    const led = text(a.generate(alice, request, leader.meta));
    await waitUntil(() => state.held.length === 1);
    const followed = text(b.generate(alice, request, follower.meta));
    await waitUntil(() => store.seen.checks > 0); // the follower is waiting on the leader's claim
    state.held.forEach((release) => release());
    expect([await led, await followed]).toEqual(['Hello there', 'Hello there']);
    expect([state.calls, leader.statuses, follower.statuses]).toEqual([1, ['miss'], ['hit']]);
    expect(store.claims.size).toBe(0); // the leader let go of its claim
  });

  it('a failed leader lets go of its claim: the follower on another instance calls itself', async () => {
    const { a, b, state, store } = instances();
    state.hold = true;
    state.fail = true;
    const led = a.generate(alice, request, meta().meta).catch((e: unknown) => e);
    await waitUntil(() => state.held.length === 1);
    const follower = meta();
    const followed = text(b.generate(alice, request, follower.meta));
    await waitUntil(() => store.seen.checks > 0);
    state.fail = false;
    state.hold = false;
    state.held.forEach((release) => release());
    expect(await led).toBeInstanceOf(GatewayError);
    expect(await followed).toBe('Hello there');
    expect([state.calls, follower.statuses]).toEqual([2, ['miss']]);
  });

  it("a follower stops waiting when the leader's claim has outlived its life on the cache's clock", async () => {
    let clock = 1_000_000;
    const { a, b, state, store } = instances(() => clock);
    state.hold = true;
    void a.generate(alice, request, meta().meta).catch(() => undefined);
    await waitUntil(() => state.held.length === 1);
    const follower = meta();
    const followed = b.generate(alice, request, follower.meta);
    await waitUntil(() => store.seen.checks > 0); // waiting on a claim that is still held
    state.hold = false;
    clock += 30_001; // the claim's life (SHARED_CLAIM_MS) has passed: the follower calls upstream itself
    expect(await text(followed)).toBe('Hello there');
    expect([state.calls, follower.statuses]).toEqual([2, ['miss']]);
    state.held.forEach((release) => release());
  });
});

async function text(result: Promise<{ content: Array<{ type: string; text?: string }> }>): Promise<string | undefined> {
  return (await result).content.map((p) => p.text ?? '').join('');
}

async function waitUntil(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}
