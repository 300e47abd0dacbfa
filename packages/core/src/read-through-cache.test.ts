import { createHook } from 'node:async_hooks';
import { ReadThroughCache } from './read-through-cache';
import { Billing } from './use-cases/billing';
import type { CreditQuota, QuotaRepository } from './ports/quota-repository.port';

/** A store read that answers when the test says so. */
function gate<T>() {
  const loads: Array<(v: T) => void> = [];
  const load = () => new Promise<T>((resolve) => loads.push(resolve));
  return { loads, load };
}

describe('ReadThroughCache', () => {
  const cache = () => new ReadThroughCache<string>({ ttlMs: 1000, maxEntries: 10, now: () => 0 });

  it('callers that miss together share one read; the value is stored once and reused within the TTL', async () => {
    let now = 0;
    const c = new ReadThroughCache<string>({ ttlMs: 1000, maxEntries: 10, now: () => now });
    const { loads, load } = gate<string>();
    const all = Promise.all([1, 2, 3].map(() => c.get('k', load)));
    loads[0]!('v1');
    expect(await all).toEqual(['v1', 'v1', 'v1']);
    expect(await c.get('k', load)).toBe('v1');
    expect(loads).toHaveLength(1);
    // expired: the next miss reads again
    now = 1000;
    const next = c.get('k', load);
    loads[1]!('v2');
    expect(await next).toBe('v2');
  });

  it('after forget() the next caller starts a fresh read, and the forgotten read is not stored', async () => {
    const c = cache();
    const { loads, load } = gate<string>();
    const stale = c.get('k', load);
    c.forget('k');
    const fresh = c.get('k', load);
    loads[0]!('before the write');
    loads[1]!('after the write');
    expect([await stale, await fresh, await c.get('k', load)]).toEqual(['before the write', 'after the write', 'after the write']);
    expect(loads).toHaveLength(2);
  });

  it('a failed read fails its callers and is not shared with later ones', async () => {
    const c = cache();
    let n = 0;
    const load = () => (++n === 1 ? Promise.reject(new Error('store down')) : Promise.resolve('ok'));
    await expect(Promise.all([c.get('k', load), c.get('k', load)])).rejects.toThrow('store down');
    expect(await c.get('k', load)).toBe('ok');
    expect(n).toBe(2);
  });
});

describe('Billing prechecks that miss the quota cache together', () => {
  it('read each quota once', async () => {
    const account = gate<CreditQuota>();
    const key = gate<CreditQuota>();
    const quotas = { get: account.load, getKey: key.load } as unknown as QuotaRepository;
    const billing = new Billing(quotas, { cacheMs: 1000, now: () => 0 });
    const principal = { accountId: 'a', keyId: 'k' } as Parameters<Billing['precheck']>[0];
    const checks = Promise.all(Array.from({ length: 5 }, () => billing.precheck(principal)));
    await Promise.resolve();
    const open = { limit: null, used: 0 } as unknown as CreditQuota;
    account.loads.forEach((answer) => answer(open));
    key.loads.forEach((answer) => answer(open));
    await checks;
    expect({ account: account.loads.length, key: key.loads.length }).toEqual({ account: 1, key: 1 });
  });
});

describe('a fresh cached quota on the hot path', () => {
  it('is read without a promise per read: a precheck and a status of cached quotas create one promise each (their own)', async () => {
    let t = 0;
    const limited = { limit: 100, used: 10, period: null } as unknown as CreditQuota;
    const quotas = { get: async () => limited, getKey: async () => limited } as unknown as QuotaRepository;
    const billing = new Billing(quotas, { cacheMs: 1000, now: () => t });
    const principal = { accountId: 'a', keyId: 'k' } as Parameters<Billing['precheck']>[0];
    await billing.precheck(principal); // fills the cache
    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) }).enable();
    const checked = billing.precheck(principal);
    const status = billing.status(principal);
    hook.disable();
    await checked;
    expect({ promises, status: await status }).toEqual({ promises: 2, status: { remaining: 90, resetsAt: null } });
    t = 1000; // expired: read again
    await expect(billing.precheck(principal, 95)).rejects.toMatchObject({ code: 'quota_exhausted' });
  });

  it('peek answers a fresh value only', () => {
    let t = 0;
    const cache = new ReadThroughCache<string>({ ttlMs: 10, maxEntries: 10, now: () => t });
    expect(cache.peek('k')).toBeUndefined();
    return cache
      .get('k', async () => 'v')
      .then(() => {
        expect(cache.peek('k')).toBe('v');
        t = 10;
        expect(cache.peek('k')).toBeUndefined();
      });
  });
});
