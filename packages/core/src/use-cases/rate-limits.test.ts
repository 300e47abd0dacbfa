import { createHook } from 'node:async_hooks';
import { GatewayError } from '../errors';
import type { Principal } from '../auth';
import type { MinuteCount, RateLimitStore } from '../ports/rate-limit.port';
import { createKeyRateLimiter, createStreamSlots, createTokenRateLimiter, limitCounts } from './rate-limits';

/** Counts in a map, with a switch that makes the store unreachable (it answers undefined, as Redis down does). */
function fakeStore() {
  const points = new Map<string, number>();
  const slots = new Map<string, number>();
  const state = { down: false };
  const count = (k: string): MinuteCount => ({ consumed: points.get(k) ?? 0, msBeforeNext: 30_000 });
  const store: RateLimitStore = {
    async addPoints(prefix, key, n) {
      if (state.down) return undefined;
      points.set(`${prefix}:${key}`, (points.get(`${prefix}:${key}`) ?? 0) + n);
      return count(`${prefix}:${key}`);
    },
    peekPoints: async (prefix, key) => (state.down ? undefined : count(`${prefix}:${key}`)),
    async takeSlot(holder, limit) {
      if (state.down) return undefined;
      const n = slots.get(holder) ?? 0;
      if (n >= limit) return null;
      slots.set(holder, n + 1);
      return () => slots.set(holder, (slots.get(holder) ?? 1) - 1);
    },
  };
  return { store, state, points };
}

const key = (over: Partial<Principal> = {}): Principal => ({ accountId: 'acme', keyId: 'k1', group: 'default', ...over }) as Principal;
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'admitted',
    (e: GatewayError) => `${e.reason}/${e.code}`,
  );

describe('rate limits (the rule over the RateLimitStore port)', () => {
  it("refuses a key over its own limit, which replaces the gateway's, with 429 rate_limit_exceeded and Retry-After", async () => {
    const { store } = fakeStore();
    const limiter = createKeyRateLimiter({ requestsPerMinutePerKey: 1 }, limitCounts(store));
    const own = key({ keyId: 'own', limits: { requestsPerMinute: 2 } } as Partial<Principal>);
    expect([await codeOf(limiter.consume(own)), await codeOf(limiter.consume(own)), await codeOf(limiter.consume(own))]).toEqual([
      'admitted',
      'admitted',
      'rate_limited/rate_limit_exceeded',
    ]);
    const err = await limiter.consume(own).catch((e: GatewayError) => e);
    expect(err).toMatchObject({ retryAfterSeconds: 30 });
  });

  it("counts every key of an account against the account's ceiling", async () => {
    const { store } = fakeStore();
    const limiter = createKeyRateLimiter({ requestsPerMinutePerKey: 0 }, limitCounts(store), { requestsPerMinute: 1 });
    await limiter.consume(key({ keyId: 'a' }));
    await expect(limiter.consume(key({ keyId: 'b' }))).rejects.toThrow('for this account (all its keys) exceeded');
  });

  it('with no limit on the key or its account, a request is admitted without counting (one promise, its own)', async () => {
    const { store, points } = fakeStore();
    const limiter = createKeyRateLimiter({ requestsPerMinutePerKey: 0 }, limitCounts(store));
    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) }).enable();
    const admitted = limiter.consume(key());
    hook.disable();
    await admitted;
    expect({ promises, counted: points.size }).toEqual({ promises: 1, counted: 0 });
  });

  it('while the shared store cannot answer: open counts in this process, closed refuses with rate_limiter_unavailable', async () => {
    const shared = fakeStore();
    const local = fakeStore();
    shared.state.down = true;
    const open = createKeyRateLimiter({ requestsPerMinutePerKey: 5 }, limitCounts(local.store, shared.store, 'open'));
    await open.consume(key());
    expect(local.points.get('gw-rpm:k1')).toBe(1);
    const closed = createKeyRateLimiter({ requestsPerMinutePerKey: 5 }, limitCounts(local.store, shared.store, 'closed'));
    expect(await codeOf(closed.consume(key()))).toBe('upstream_unavailable/rate_limiter_unavailable');
    shared.state.down = false;
    expect(await codeOf(closed.consume(key()))).toBe('admitted');
    expect(shared.points.get('gw-rpm:k1')).toBe(1);
  });

  it('refuses a key once its tokens of the minute reached its limit, counted from the usage rows', async () => {
    const { store } = fakeStore();
    const tokens = createTokenRateLimiter(limitCounts(store));
    const limited = key({ limits: { tokensPerMinute: 100 } } as Partial<Principal>);
    await tokens.check(limited);
    const rows: unknown[] = [];
    const log = tokens.wrap({ record: (r) => rows.push(r), flush: async () => undefined });
    log.record({ keyId: 'k1', accountId: 'acme', inputTokens: 60, outputTokens: 40 } as never);
    await new Promise((r) => setImmediate(r));
    expect(rows).toHaveLength(1);
    expect(await codeOf(tokens.check(limited))).toBe('rate_limited/token_rate_limit_exceeded');
  });

  it("holds a stream slot of the account and of the key, and frees both; the account's refusal takes none", async () => {
    const { store } = fakeStore();
    const slots = createStreamSlots({ concurrentStreamsPerKey: 1 }, limitCounts(store), { concurrentStreams: 1 });
    const release = await slots.acquire(key());
    await expect(slots.acquire(key({ keyId: 'k2' }))).rejects.toMatchObject({ code: 'too_many_concurrent_streams', retryAfterSeconds: 2 });
    release();
    await expect(slots.acquire(key({ keyId: 'k2' }))).resolves.toBeInstanceOf(Function);
  });
});
