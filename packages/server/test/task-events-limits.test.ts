import request from 'supertest';
import { DEFAULT_CONFIG } from '../src/default-config';
import { startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

jest.setTimeout(90_000);

/**
 * Live status streams are bounded: TASK_EVENTS_MAX_PER_KEY streams of one key at once (2 here), refused beyond with
 * 429 in the route's own error shape, and a stream ends when its key is revoked or expires (within the key cache's
 * TTL, 200 ms here).
 */
const ADMIN = 'admin-key-for-live-status-limits-01';
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway({
    config: testConfigFile({
      providers: [
        { id: 'sim', type: 'simulator' },
        { id: 'sim-queued', type: 'simulator', options: { queuedMs: 600_000 } },
      ],
      models: [
        ...DEFAULT_CONFIG.models,
        { id: 'sim-video-queued', kind: 'video', family: '2.0', tier: 'standard', provider: 'sim-queued' },
      ],
    }),
    env: {
      adminKey: ADMIN,
      keyCacheTtlMs: 200,
      webhooks: {
        allowedHosts: [],
        retry: { firstDelayMs: 1000, factor: 2, maxDelayMs: 1000, windowMs: 3_600_000 },
        timeoutMs: 5000,
        intervalMs: 1000,
        livePollMs: 600_000,
        liveLimits: { perKey: 2, perInstance: 100 },
      },
    },
  });
});
afterAll(async () => {
  await gw?.stop();
});

const admin = () => ({ Authorization: `Bearer ${ADMIN}` });

async function newKey(settings: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const res = await request(gw.app)
    .post('/admin/keys')
    .set(admin())
    .send({ account: 'beta', group: 'vip', ...settings });
  expect(res.status).toBe(201);
  return res.body;
}

async function queuedTask(key: string): Promise<string> {
  const res = await request(gw.app)
    .post('/v1/videos')
    .set('Authorization', `Bearer ${key}`)
    .send({ model: 'sim-video-queued', prompt: 'a long wait', seconds: '4', size: '1280x720' });
  expect(res.status).toBe(200);
  return res.body.id;
}

/** Opens a stream and reads its first message; `ended` resolves when the server ends it. */
async function openStream(path: string, key: string) {
  const abort = new AbortController();
  const res = await fetch(gw.url + path, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream'))
    return { status: res.status, body: (await res.json()) as any, abort };
  const reader = res.body!.getReader();
  const first = await reader.read();
  expect(Buffer.from(first.value ?? []).toString()).toContain('data: ');
  const ended = (async () => {
    for (;;) if ((await reader.read()).done) return true;
  })().catch(() => true);
  return { status: res.status, body: null, abort, ended };
}

it('refuses a stream beyond the per-key cap with 429 in the route error shape, and admits again once one closes', async () => {
  const { key } = await newKey();
  const id = await queuedTask(key);
  const a = await openStream(`/v1/videos/${id}/events`, key);
  const b = await openStream(`/v1/contents/generations/tasks/${id}/events`, key);
  expect([a.status, b.status]).toEqual([200, 200]);

  const openai = await openStream(`/v1/videos/${id}/events`, key);
  expect(openai.status).toBe(429);
  expect(openai.body.error).toMatchObject({ code: 'too_many_event_streams', message: expect.stringContaining('live status streams') });
  const tasks = await openStream(`/v1/contents/generations/tasks/${id}/events`, key);
  expect(tasks.status).toBe(429);
  expect(tasks.body).toEqual({ code: 'too_many_event_streams', message: expect.any(String) });
  const gemini = await openStream(`/v1beta/models/sim-video-queued/operations/${id}/events`, key);
  expect(gemini.status).toBe(429);
  expect(gemini.body).toEqual({ code: 'too_many_event_streams', message: expect.any(String) });

  // another key of the same account is not held by this one's cap
  const other = await newKey();
  const c = await openStream(`/v1/videos/${id}/events`, other.key);
  expect(c.status).toBe(200);

  a.abort.abort();
  await a.ended;
  // the server sees the close shortly after: a new stream is admitted once it does
  let again = await openStream(`/v1/videos/${id}/events`, key);
  for (let i = 0; again.status === 429 && i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    again = await openStream(`/v1/videos/${id}/events`, key);
  }
  expect(again.status).toBe(200);
  for (const s of [b, c, again]) s.abort.abort();
});

it('ends the streams of a revoked key, and of a key that expires, within the key cache TTL', async () => {
  const revoked = await newKey();
  const id = await queuedTask(revoked.key);
  const s = await openStream(`/v1/videos/${id}/events`, revoked.key);
  expect(s.status).toBe(200);
  expect((await request(gw.app).delete(`/admin/keys/${revoked.id}`).set(admin())).status).toBe(200);
  expect(await s.ended).toBe(true);

  const expiring = await newKey({ expires_at: new Date(Date.now() + 3000).toISOString() });
  const id2 = await queuedTask(expiring.key);
  const t = await openStream(`/v1/contents/generations/tasks/${id2}/events`, expiring.key);
  expect(t.status).toBe(200);
  expect(await t.ended).toBe(true);
  expect((await request(gw.app).get(`/v1/videos/${id2}`).set('Authorization', `Bearer ${expiring.key}`)).status).toBe(401);
});
