import request from 'supertest';
import { DEFAULT_MAX_KEYS_PER_ACCOUNT } from '@gateway/core';
import { DEFAULT_CONFIG } from '../src/default-config';
import { envFromProcess } from '../src/gateway-env';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway, chatAs } from './support/test-gateway';

jest.setTimeout(120_000);

/**
 * Keys stay within what the platform admin granted (issue 34). An account admin's key touches through /v1/keys only
 * keys it could have created itself: a narrowed key neither rotates, changes nor revokes a wider one; a field left
 * out or sent as null means the caller's own bound, never none; a key cannot widen itself. An account holds at most
 * MAX_KEYS_PER_ACCOUNT live keys, and its keys together stay under account ceilings (requests and tokens per minute,
 * concurrent streams, live-status streams), so keys it mints for itself do not add up to more.
 */
const ADMIN = 'sk-admin-key-bounds-0001';
const T0 = Date.parse('2030-01-01T00:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

type Key = { id: string; key: string } & Record<string, unknown>;

/** What the platform admin gave the narrowed account admin of the issue: one model, rate limits, own tasks, 1 h. */
const NARROW = {
  group: 'default',
  role: 'admin',
  models: ['sim-chat'],
  limits: { requests_per_minute: 60, tokens_per_minute: 10_000, concurrent_streams: 2 },
  tasks: 'own',
  expires_at: iso(T0 + HOUR),
  budget: { credit_limit: 50, period: 'monthly' },
};

function clients(app: () => Parameters<typeof request>[0]) {
  const as = (key: string) => ({
    get: (path: string) => request(app()).get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body: object) => request(app()).post(path).set('Authorization', `Bearer ${key}`).send(body),
    patch: (path: string, body: object) => request(app()).patch(path).set('Authorization', `Bearer ${key}`).send(body),
    delete: (path: string) => request(app()).delete(path).set('Authorization', `Bearer ${key}`),
  });
  const platform = as(ADMIN);
  let accounts = 0;
  return {
    as,
    platform,
    /** a fresh account, so each test counts its own keys */
    async account(): Promise<string> {
      const id = `acct-${process.pid}-${++accounts}`;
      expect((await platform.post('/admin/accounts', { id })).status).toBe(201);
      return id;
    },
    async granted(account: string, settings: object): Promise<Key> {
      const res = await platform.post('/admin/keys', { account, ...settings });
      expect(res.status).toBe(201);
      return res.body;
    },
  };
}

describe('keys stay within what the platform admin granted', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    const config = testConfigFile({ limits: { requestsPerMinutePerKey: 600, concurrentStreamsPerKey: 4 } });
    gw = await startTestGateway({
      listen: false,
      config,
      env: { adminKey: ADMIN, keyCacheTtlMs: 0, maxKeysPerAccount: 8 },
      clock: () => new Date(T0),
    });
  });
  afterAll(async () => gw?.stop());

  const c = clients(() => gw.app);
  const chat = (key: string) => chatAs(gw.app, key);
  const view = async (by: Key, id: string) =>
    ((await c.as(by.key).get('/v1/keys')).body.data as Array<Record<string, unknown>>).find((k) => k.id === id)!;

  it('a narrowed account admin cannot rotate, change or revoke an unrestricted key of another group, which keeps its secret', async () => {
    const account = await c.account();
    const wide = await c.granted(account, { group: 'vip', role: 'admin' });
    const narrow = c.as((await c.granted(account, NARROW)).key);
    for (const res of [
      await narrow.post(`/v1/keys/${wide.id}/rotate`, { grace_seconds: 2_592_000 }),
      await narrow.patch(`/v1/keys/${wide.id}`, { name: 'mine' }),
      await narrow.delete(`/v1/keys/${wide.id}`),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('exceeds_group');
      expect(res.body.key).toBeUndefined();
    }
    expect((await chat(wide.key)).status).toBe(200);
    expect(await view(wide, wide.id)).toMatchObject({ name: null, revoked_at: null });

    // a key it could have created, it manages
    const child = (await narrow.post('/v1/keys', {})).body as Key;
    expect((await narrow.post(`/v1/keys/${child.id}/rotate`, { grace_seconds: 0 })).status).toBe(200);
    expect((await narrow.patch(`/v1/keys/${child.id}`, { name: 'ci' })).status).toBe(200);
    expect((await narrow.delete(`/v1/keys/${child.id}`)).status).toBe(200);
  });

  it.each([
    ['may call every model of the group', 'exceeds_allowlist', { models: null }],
    [
      'has no rate limit of its own (the gateway default is laxer)',
      'exceeds_rate_limit',
      { limits: { ...NARROW.limits, requests_per_minute: null } },
    ],
    ['never expires', 'exceeds_expiry', { expires_at: null }],
    ['expires later', 'exceeds_expiry', { expires_at: iso(T0 + 2 * HOUR) }],
    ['sees every task of the account', 'exceeds_tasks', { tasks: 'account' }],
    ['has no budget', 'exceeds_budget', { budget: null }],
    ['has a budget that resets daily', 'exceeds_budget', { budget: { credit_limit: 50, period: 'daily' } }],
    ['is in another group', 'exceeds_group', { group: 'vip' }],
  ])('refuses to rotate, change or revoke a key that %s (400 %s)', async (_n, code, wider) => {
    const account = await c.account();
    const target = await c.granted(account, { ...NARROW, ...wider });
    const narrow = c.as((await c.granted(account, NARROW)).key);
    for (const res of [
      await narrow.post(`/v1/keys/${target.id}/rotate`, { grace_seconds: 60 }),
      await narrow.patch(`/v1/keys/${target.id}`, { name: 'mine' }),
      await narrow.delete(`/v1/keys/${target.id}`),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(code);
    }
    expect((await chat(target.key)).status).toBe(200);
  });

  it('a member key is refused by role alone (403 forbidden_role)', async () => {
    const account = await c.account();
    const target = await c.granted(account, { role: 'member' });
    const member = c.as((await c.granted(account, { role: 'member' })).key);
    const res = await member.post(`/v1/keys/${target.id}/rotate`, { grace_seconds: 0 });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden_role');
  });

  it("a field left out or sent as null means the caller's bound: expiry, limits, task scope, budget", async () => {
    const account = await c.account();
    const narrow = c.as((await c.granted(account, NARROW)).key);
    const inherited = {
      models: ['sim-chat'],
      expires_at: NARROW.expires_at,
      limits: NARROW.limits,
      tasks: 'own',
      budget: { credit_limit: 50, period: 'monthly' },
    };
    const left = await narrow.post('/v1/keys', {});
    expect(left.status).toBe(201);
    expect(left.body).toMatchObject(inherited);
    const nulls = await narrow.post('/v1/keys', { limits: null, expires_at: null, budget: null });
    expect(nulls.status).toBe(201);
    expect(nulls.body).toMatchObject(inherited);
    const partial = await narrow.post('/v1/keys', { limits: { requests_per_minute: 10, tokens_per_minute: null } });
    expect(partial.status).toBe(201);
    expect(partial.body.limits).toEqual({ ...NARROW.limits, requests_per_minute: 10 });
    // narrower is fine: a smaller budget that never resets, an earlier expiry
    const smaller = await narrow.post('/v1/keys', { budget: { credit_limit: 10 }, expires_at: iso(T0 + 60_000) });
    expect(smaller.status).toBe(201);
    expect(smaller.body).toMatchObject({ budget: { credit_limit: 10, period: null }, expires_at: iso(T0 + 60_000) });
  });

  it.each([
    ['a later expiry', 'exceeds_expiry', { expires_at: iso(T0 + 2 * HOUR) }],
    ['every task of the account', 'exceeds_tasks', { tasks: 'account' }],
    ['a larger budget', 'exceeds_budget', { budget: { credit_limit: 51, period: 'monthly' } }],
    ['a budget that resets more often', 'exceeds_budget', { budget: { credit_limit: 5, period: 'daily' } }],
    ['a laxer token limit', 'exceeds_rate_limit', { limits: { tokens_per_minute: 20_000 } }],
    ['a laxer stream limit', 'exceeds_rate_limit', { limits: { concurrent_streams: 3 } }],
  ])('refuses a child key with %s (400 %s) and writes nothing', async (_n, code, body) => {
    const account = await c.account();
    const narrow = c.as((await c.granted(account, NARROW)).key);
    const before = (await narrow.get('/v1/keys')).body.data.length;
    const res = await narrow.post('/v1/keys', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect((await narrow.get('/v1/keys')).body.data.length).toBe(before);
  });

  it('a key cannot widen itself: nulls keep its bounds, wider values are refused, narrower ones apply', async () => {
    const account = await c.account();
    const me = await c.granted(account, NARROW);
    const self = c.as(me.key);
    const kept = await self.patch(`/v1/keys/${me.id}`, { limits: null, expires_at: null, budget: null });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ limits: NARROW.limits, expires_at: NARROW.expires_at, budget: NARROW.budget, tasks: 'own' });
    for (const [body, code] of [
      [{ tasks: 'account' }, 'exceeds_tasks'],
      [{ expires_at: iso(T0 + 24 * HOUR) }, 'exceeds_expiry'],
      [{ limits: { requests_per_minute: 1000 } }, 'exceeds_rate_limit'],
      [{ budget: { credit_limit: 100, period: 'monthly' } }, 'exceeds_budget'],
      [{ models: null }, 'exceeds_allowlist'],
    ] as const) {
      const res = await self.patch(`/v1/keys/${me.id}`, body);
      expect([res.status, res.body.error?.code]).toEqual([400, code]);
    }
    expect(await view(me, me.id)).toMatchObject({ limits: NARROW.limits, expires_at: NARROW.expires_at, tasks: 'own' });
    const narrower = await self.patch(`/v1/keys/${me.id}`, { limits: { requests_per_minute: 30 } });
    expect(narrower.status).toBe(200);
    expect(narrower.body.limits.requests_per_minute).toBe(30);
  });

  it('caps live keys per account (MAX_KEYS_PER_ACCOUNT, 8 here): the admin API and /v1/keys refuse the next with exceeds_key_count', async () => {
    const account = await c.account();
    const keys: Key[] = [];
    for (let i = 0; i < 8; i++) keys.push(await c.granted(account, { role: 'admin' }));
    const byAdmin = await c.platform.post('/admin/keys', { account });
    expect(byAdmin.status).toBe(400);
    expect(byAdmin.body.error.code).toBe('exceeds_key_count');
    const self = await c.as(keys[0]!.key).post('/v1/keys', {});
    expect(self.status).toBe(400);
    expect(self.body.error.code).toBe('exceeds_key_count');
    expect((await c.platform.get(`/admin/keys?account=${account}`)).body.data).toHaveLength(8);
    // other accounts are not counted with it; a revoked key no longer counts
    expect((await c.as(BETA_KEY).post('/v1/keys', {})).status).toBe(201);
    expect((await c.as(keys[0]!.key).delete(`/v1/keys/${keys[1]!.id}`)).status).toBe(200);
    expect((await c.as(keys[0]!.key).post('/v1/keys', {})).status).toBe(201);
  });

  it('reads MAX_KEYS_PER_ACCOUNT from the environment (default 500) and refuses a value that is not a whole number', () => {
    expect(DEFAULT_MAX_KEYS_PER_ACCOUNT).toBe(500);
    expect(envFromProcess({}).maxKeysPerAccount).toBeUndefined();
    expect(envFromProcess({ MAX_KEYS_PER_ACCOUNT: '3' }).maxKeysPerAccount).toBe(3);
    expect(() => envFromProcess({ MAX_KEYS_PER_ACCOUNT: 'many' })).toThrow(/MAX_KEYS_PER_ACCOUNT/);
    expect(envFromProcess({ CONCURRENT_STREAMS_PER_ACCOUNT: '7', TASK_EVENTS_MAX_PER_ACCOUNT: '9' })).toMatchObject({
      accountLimits: { concurrentStreams: 7, requestsPerMinute: 0, tokensPerMinute: 0 },
      webhooks: { liveLimits: { perAccount: 9 } },
    });
  });
});

describe("an account's keys together stay under the account ceilings", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      config: testConfigFile({
        providers: [
          // a stream stays open for seconds: its slot is held while the test opens the next
          { id: 'sim', type: 'simulator', options: { chunkDelayMs: 2000 } },
          { id: 'sim-queued', type: 'simulator', options: { queuedMs: 600_000 } },
        ],
        models: [
          ...DEFAULT_CONFIG.models,
          { id: 'sim-video-queued', kind: 'video', family: '2.0', tier: 'standard', provider: 'sim-queued' },
        ],
      }),
      env: {
        adminKey: ADMIN,
        accountLimits: { requestsPerMinute: 20, tokensPerMinute: 1, concurrentStreams: 4 },
        webhooks: {
          allowedHosts: [],
          retry: { firstDelayMs: 1000, factor: 2, maxDelayMs: 1000, windowMs: 3_600_000 },
          timeoutMs: 5000,
          intervalMs: 1000,
          livePollMs: 600_000,
          liveLimits: { perKey: 2, perAccount: 3, perInstance: 100 },
        },
      },
    });
  });
  afterAll(async () => gw?.stop());

  const c = clients(() => gw.app);
  const twoKeys = async (settings: object = {}) => {
    const account = await c.account();
    return [await c.granted(account, settings), await c.granted(account, settings)] as const;
  };
  /** Opens a request and waits for its answer's head; `close` ends it. */
  async function open(path: string, key: string, body?: object) {
    const abort = new AbortController();
    const res = await fetch(gw.url + path, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
      signal: abort.signal,
    });
    const streaming = res.headers.get('content-type')?.startsWith('text/event-stream');
    return {
      status: res.status,
      error: streaming ? null : ((await res.json()) as { error: { code: string; message: string } }).error,
      close: () => abort.abort(),
    };
  }

  it('requests per minute: the keys of one account share REQUESTS_PER_MINUTE_PER_ACCOUNT', async () => {
    const [a, b] = await twoKeys();
    for (let i = 0; i < 20; i++) expect((await c.as(i % 2 ? a.key : b.key).get('/v1/models')).status).toBe(200);
    const refused = await c.as(a.key).get('/v1/models');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(refused.body.error.message).toContain('account');
    expect((await c.as(BETA_KEY).get('/v1/models')).status).toBe(200);
  });

  it('tokens per minute: tokens one key used count for its sibling under TOKENS_PER_MINUTE_PER_ACCOUNT', async () => {
    const [a, b] = await twoKeys();
    const used = await c.as(a.key).post('/v1/chat/completions', { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] });
    expect(used.status).toBe(200);
    // the tokens are counted from the usage row, which may land just after the answer
    let refused = await c.as(b.key).get('/v1/models');
    for (let i = 0; refused.status === 200 && i < 10; i++) {
      await new Promise((r) => setTimeout(r, 100));
      refused = await c.as(b.key).get('/v1/models');
    }
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('token_rate_limit_exceeded');
  });

  it('concurrent streams: the keys of one account share CONCURRENT_STREAMS_PER_ACCOUNT', async () => {
    const [a, b] = await twoKeys();
    const stream = { model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'tell me a long story' }] };
    const held = [];
    for (const k of [a, a, b, b]) held.push(await open('/v1/chat/completions', k.key, stream));
    try {
      expect(held.map((s) => s.status)).toEqual([200, 200, 200, 200]);
      const third = await open('/v1/chat/completions', a.key, stream);
      expect(third.status).toBe(429);
      expect(third.error).toMatchObject({ code: 'too_many_concurrent_streams' });
      expect(third.error!.message).toContain('account');
      const other = await open('/v1/chat/completions', BETA_KEY, stream);
      held.push(other);
      expect(other.status).toBe(200);
    } finally {
      for (const s of held) s.close();
    }
  });

  // (a live-status stream is a stream too: CONCURRENT_STREAMS_PER_ACCOUNT, 4 here, counts it; 3 are held here)
  it('live-status streams: the keys of one account share TASK_EVENTS_MAX_PER_ACCOUNT (3 here; 2 per key)', async () => {
    const [a, b] = await twoKeys({ group: 'vip' });
    const task = async (key: string) => {
      const res = await c.as(key).post('/v1/videos', { model: 'sim-video-queued', prompt: 'a long wait', seconds: '4', size: '1280x720' });
      expect(res.status).toBe(200);
      return res.body.id as string;
    };
    const [ta, tb] = [await task(a.key), await task(b.key)];
    const held = [
      await open(`/v1/videos/${ta}/events`, a.key),
      await open(`/v1/videos/${ta}/events`, a.key),
      await open(`/v1/videos/${tb}/events`, b.key),
    ];
    try {
      expect(held.map((s) => s.status)).toEqual([200, 200, 200]);
      const fourth = await open(`/v1/videos/${tb}/events`, b.key);
      expect(fourth.status).toBe(429);
      expect(fourth.error).toMatchObject({ code: 'too_many_event_streams' });
      expect(fourth.error!.message).toMatch(/account.*live status streams/);
      held.shift()!.close();
      // the closed stream's place comes back once the gateway saw the close
      let again = await open(`/v1/videos/${tb}/events`, b.key);
      for (let i = 0; again.status === 429 && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 100));
        again = await open(`/v1/videos/${tb}/events`, b.key);
      }
      held.push(again);
      expect(again.status).toBe(200);
    } finally {
      for (const s of held) s.close();
    }
  });
});
