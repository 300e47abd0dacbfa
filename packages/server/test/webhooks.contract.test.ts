import request from 'supertest';
import { eventually } from '@gateway/testkit';
import { openStreamCount } from '@gateway/http-kit';
import { DEFAULT_CONFIG } from '../src/default-config';
import { webhooksTo } from './support/webhook-settings';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';
import { readEventStream, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(90_000);

const ADMIN_KEY = 'admin-key-for-webhook-tests-0001';
let gw: TestGateway;
let rx: WebhookReceiver;
const config = () =>
  testConfigFile({
    providers: [
      { id: 'sim', type: 'simulator', options: { queuedMs: 100, videoLatencyMs: 200 } },
      { id: 'sim-queued', type: 'simulator', options: { queuedMs: 600_000 } },
    ],
    models: [...DEFAULT_CONFIG.models, { id: 'sim-video-queued', kind: 'video', family: '2.0', tier: 'standard', provider: 'sim-queued' }],
  });

beforeAll(async () => {
  rx = await startWebhookReceiver();
  gw = await startTestGateway({
    config: config(),
    env: {
      adminKey: ADMIN_KEY,
      webhooks: {
        ...webhooksTo(rx),
        // no polling to speak of: the streams must be woken by the change feed (PGlite's listen)
        livePollMs: 600_000,
      },
    },
  });
  await gw.startBackground();
});
afterAll(async () => {
  await gw?.stop();
  await rx?.close();
});

const auth = (key = ALPHA_KEY) => ({ Authorization: `Bearer ${key}` });
const createEndpoint = (body: unknown, key = ALPHA_KEY) =>
  request(gw.app)
    .post('/v1/webhook_endpoints')
    .set(auth(key))
    .send(body as object);

function creation(format: 'gemini' | 'openai' | 'tasks', prompt: string, extra: Record<string, unknown> = {}) {
  if (format === 'gemini')
    return {
      path: '/v1beta/models/sim-video-2.0:predictLongRunning',
      body: { instances: [{ prompt }], parameters: { durationSeconds: 4, resolution: '480p' } },
    };
  if (format === 'openai') return { path: '/v1/videos', body: { model: 'sim-video-2.0', prompt, seconds: '4', size: '1280x720' } };
  return {
    path: '/v1/contents/generations/tasks',
    body: { model: 'sim-video-2.0', content: [{ type: 'text', text: prompt }], duration: 4, resolution: '480p', ...extra },
  };
}

async function createTask(format: 'gemini' | 'openai' | 'tasks', prompt: string, key = ALPHA_KEY, extra: Record<string, unknown> = {}) {
  const c = creation(format, prompt, extra);
  const res = await request(gw.app).post(c.path).set(auth(key)).send(c.body);
  expect(res.status).toBe(200);
  return (res.body.id ?? String(res.body.name).split('/').at(-1)) as string;
}

describe('webhook endpoints API', () => {
  it('creates an endpoint and shows its secret once; lists, reads and deletes without it', async () => {
    const res = await createEndpoint({ url: `${rx.url}/managed`, events: ['video.completed'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'webhook_endpoint',
      url: `${rx.url}/managed`,
      events: ['video.completed'],
      status: 'enabled',
    });
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);
    const id = res.body.id as string;

    const list = await request(gw.app).get('/v1/webhook_endpoints').set(auth());
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect(list.body.callback_secret).toMatch(/^whsec_/);
    expect(JSON.stringify(list.body.data)).not.toContain('whsec_');
    // the callback secret is stable
    expect((await request(gw.app).get('/v1/webhook_endpoints').set(auth())).body.callback_secret).toBe(list.body.callback_secret);

    const one = await request(gw.app).get(`/v1/webhook_endpoints/${id}`).set(auth());
    expect(one.body).toEqual({ ...res.body, secret: undefined, id, disabled_reason: null, failing_since: null } as object);
    expect(one.body.secret).toBeUndefined();
    // another account sees nothing of it
    expect((await request(gw.app).get(`/v1/webhook_endpoints/${id}`).set(auth(BETA_KEY))).status).toBe(404);
    expect((await request(gw.app).delete(`/v1/webhook_endpoints/${id}`).set(auth(BETA_KEY))).status).toBe(404);
    expect((await request(gw.app).delete(`/v1/webhook_endpoints/${id}`).set(auth())).body).toEqual({
      object: 'webhook_endpoint.deleted',
      id,
      deleted: true,
    });
    const gone = await request(gw.app).get(`/v1/webhook_endpoints/${id}`).set(auth());
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'webhook_endpoint_not_found' });
  });

  it.each([
    [{ url: 'http://hooks.example.com/x' }, 'invalid_webhook_url'],
    [{ url: 'https://10.0.0.1/x' }, 'forbidden_webhook_url'],
    [{ url: 'https://hooks.example.com/x', events: ['video.done'] }, 'invalid_request'],
    [{ url: 'https://hooks.example.com/x', events: [] }, 'invalid_request'],
    [{ url: 'https://hooks.example.com/x', extra: 1 }, 'unknown_field'],
    [{}, 'missing_field'],
  ])('refuses %j in the OpenAI error shape, writing nothing', async (body, code) => {
    const before = (await request(gw.app).get('/v1/webhook_endpoints').set(auth(BETA_KEY))).body.data.length;
    const res = await createEndpoint(body, BETA_KEY);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code, message: expect.any(String) });
    expect((await request(gw.app).get('/v1/webhook_endpoints').set(auth(BETA_KEY))).body.data).toHaveLength(before);
  });

  it('needs a key', async () => {
    expect((await request(gw.app).get('/v1/webhook_endpoints')).status).toBe(401);
  });

  it('is managed through the admin API too', async () => {
    const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
    const made = await request(gw.app)
      .post('/admin/accounts/beta/webhook_endpoints')
      .set(admin)
      .send({ url: 'https://hooks.example.com/b' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ account: 'beta', events: expect.arrayContaining(['video.queued', 'video.expired']) });
    expect(made.body.secret).toMatch(/^whsec_/);
    const all = await request(gw.app).get('/admin/webhook_endpoints?account=beta').set(admin);
    expect(all.body.data.map((e: { id: string }) => e.id)).toContain(made.body.id);
    expect(JSON.stringify(all.body)).not.toContain('whsec_');
    expect((await request(gw.app).get(`/v1/webhook_endpoints/${made.body.id}`).set(auth(BETA_KEY))).status).toBe(200);
    expect((await request(gw.app).get(`/admin/webhook_endpoints/${made.body.id}/deliveries`).set(admin)).body).toEqual({
      object: 'list',
      data: [],
    });
    expect((await request(gw.app).delete(`/admin/webhook_endpoints/${made.body.id}`).set(admin)).status).toBe(200);
    expect((await request(gw.app).get(`/admin/webhook_endpoints/${made.body.id}`).set(admin)).status).toBe(404);
    expect((await request(gw.app).get('/admin/webhook_endpoints').set(auth())).status).toBe(401);
  });
});

describe('deliveries', () => {
  it('signs every event of tasks created in each format, and POSTs the task object to callback_url', async () => {
    const made = await createEndpoint({ url: `${rx.url}/all` });
    const secret = made.body.secret as string;
    const callbackSecret = (await request(gw.app).get('/v1/webhook_endpoints').set(auth())).body.callback_secret as string;
    const ids = {
      gemini: await createTask('gemini', 'a gemini cat'),
      openai: await createTask('openai', 'an openai cat'),
      tasks: await createTask('tasks', 'a task cat', ALPHA_KEY, { callback_url: `${rx.url}/callback` }),
      failing: await createTask('openai', 'a failing cat [sim:fail]'),
    };
    const typesOf = (id: string) =>
      rx
        .verified(secret, '/all')
        .filter((e) => e.data.id === id)
        .map((e) => e.type);
    await eventually(() => {
      for (const id of [ids.gemini, ids.openai, ids.tasks])
        expect(typesOf(id)).toEqual(['video.queued', 'video.running', 'video.completed']);
      expect(typesOf(ids.failing)).toEqual(expect.arrayContaining(['video.queued', 'video.failed']));
    }, 60_000);
    const event = rx.verified(secret, '/all').find((e) => e.data.id === ids.openai && e.type === 'video.completed')!;
    expect(event).toEqual({
      object: 'event',
      id: expect.stringMatching(/^evt_/),
      type: 'video.completed',
      created_at: expect.any(Number),
      data: { id: ids.openai, status: 'succeeded', model: 'sim-video-2.0' },
    });
    // the webhook-id header is the event id
    expect(rx.received.find((r) => r.body.includes(event.id))?.id).toBe(event.id);
    // callback_url: the task-read object at each change, signed with the account's secret
    await eventually(
      () => expect(rx.verified(callbackSecret, '/callback').map((t) => t.status)).toEqual(['queued', 'running', 'succeeded']),
      30_000,
    );
    const done = rx.verified(callbackSecret, '/callback')[2];
    expect(done).toMatchObject({
      id: ids.tasks,
      model: 'sim-video-2.0',
      status: 'succeeded',
      content: { video_url: expect.stringContaining(ids.tasks) },
    });
    expect(() => rx.verified(secret, '/callback')).toThrow();

    const deliveries = await request(gw.app).get(`/v1/webhook_endpoints/${made.body.id}/deliveries`).set(auth());
    expect(deliveries.body.data.length).toBeGreaterThanOrEqual(10);
    expect(deliveries.body.data[0]).toMatchObject({
      object: 'webhook_delivery',
      status: 'delivered',
      attempts: [{ attempt: 1, response_status: 204, error: null }],
    });
    await request(gw.app).delete(`/v1/webhook_endpoints/${made.body.id}`).set(auth());
  });

  it('retries a 500 with the same webhook-id until it is accepted, and shows the attempts', async () => {
    const made = await createEndpoint({ url: `${rx.url}/flaky`, events: ['video.queued'] }, BETA_KEY);
    rx.answer(500);
    const id = await createTask('openai', 'a flaky cat', BETA_KEY);
    const tries = () => rx.received.filter((r) => r.path === '/flaky');
    await eventually(() => tries().length >= 3, 30_000);
    rx.answer(204);
    await eventually(() => tries().at(-1)?.answered === 204, 30_000);
    expect(new Set(tries().map((r) => r.id)).size).toBe(1);
    expect(new Set(tries().map((r) => r.body)).size).toBe(1);
    expect(rx.verified(made.body.secret, '/flaky').every((e) => e.data.id === id)).toBe(true);
    const d = (await request(gw.app).get(`/v1/webhook_endpoints/${made.body.id}/deliveries`).set(auth(BETA_KEY))).body.data[0];
    expect(d.status).toBe('delivered');
    expect(
      d.attempts.slice(0, 3).map((a: { response_status: number; response_body: string }) => [a.response_status, a.response_body]),
    ).toEqual([
      [500, 'not now'],
      [500, 'not now'],
      [500, 'not now'],
    ]);
    expect(d.attempts.at(-1).response_status).toBe(204);
    await request(gw.app).delete(`/v1/webhook_endpoints/${made.body.id}`).set(auth(BETA_KEY));
  });

  it('refuses a callback_url outside the fetch rules in the task format, creating nothing', async () => {
    const before = (await request(gw.app).get('/v1/contents/generations/tasks').set(auth(BETA_KEY))).body.total;
    for (const [url, code] of [
      ['http://hooks.example.com/', 'invalid_webhook_url'],
      ['https://192.168.1.1/', 'forbidden_webhook_url'],
      [42, 'invalid_webhook_url'],
    ] as const) {
      const c = creation('tasks', 'x', { callback_url: url });
      const res = await request(gw.app).post(c.path).set(auth(BETA_KEY)).send(c.body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { code, message: expect.any(String) } });
    }
    expect((await request(gw.app).get('/v1/contents/generations/tasks').set(auth(BETA_KEY))).body.total).toBe(before);
  });
});

describe('live status (server-sent events)', () => {
  it.each([
    ['openai', (id: string) => `/v1/videos/${id}/events`, (e: any) => e.status, 'completed'],
    ['gemini', (id: string) => `/v1beta/models/sim-video-2.0/operations/${id}/events`, (e: any) => (e.done ? 'done' : 'pending'), 'done'],
    ['tasks', (id: string) => `/v1/contents/generations/tasks/${id}/events`, (e: any) => e.status, 'succeeded'],
  ])('streams the %s object at once and at every change, and ends at the terminal state', async (_f, path, statusOf, last) => {
    const id = await createTask('tasks', 'a live cat');
    const { status, contentType, events } = await readEventStream(gw.url + path(id), ALPHA_KEY);
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/event-stream/);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(statusOf(events.at(-1))).toBe(last);
    expect(events.slice(0, -1).every((e) => statusOf(e) !== last)).toBe(true);
  });

  it('answers an unknown or foreign id with a 404 in the format’s shape', async () => {
    const id = await createTask('openai', 'a private cat');
    const openai = await readEventStream(`${gw.url}/v1/videos/${id}/events`, BETA_KEY);
    expect(openai.status).toBe(404);
    expect(openai.body.error).toMatchObject({ code: 'task_not_found' });
    const tasks = await readEventStream(`${gw.url}/v1/contents/generations/tasks/nope/events`, ALPHA_KEY);
    expect({ status: tasks.status, body: tasks.body }).toEqual({
      status: 404,
      body: { code: 'task_not_found', message: expect.any(String) },
    });
  });

  it('ends a cancelled task’s stream with the cancelled state', async () => {
    const c = { model: 'sim-video-queued', content: [{ type: 'text', text: 'never' }], duration: 5 };
    const made = await request(gw.app).post('/v1/contents/generations/tasks').set(auth(BETA_KEY)).send(c);
    expect(made.status).toBe(200);
    const id = made.body.id as string;
    const reading = readEventStream(`${gw.url}/v1/contents/generations/tasks/${id}/events`, BETA_KEY);
    expect((await request(gw.app).delete(`/v1/contents/generations/tasks/${id}`).set(auth(BETA_KEY))).body.outcome).toBe('cancelled');
    const { events } = await reading;
    // queued first unless the cancel won the race with the stream's first read
    expect([['queued', 'cancelled'], ['cancelled']]).toContainEqual(events.map((e) => e.status));
  });

  it('ends open streams when the server shuts down, once its grace period is over', async () => {
    const other = await startTestGateway({ config: config(), env: { shutdownGraceMs: 200 } });
    try {
      const c = { model: 'sim-video-queued', content: [{ type: 'text', text: 'never' }], duration: 5 };
      const id = (await request(other.app).post('/v1/contents/generations/tasks').set(auth(BETA_KEY)).send(c)).body.id as string;
      const reading = readEventStream(`${other.url}/v1/contents/generations/tasks/${id}/events`, BETA_KEY);
      await eventually(() => openStreamCount() > 0);
      await other.stop();
      expect((await reading).events.map((e) => e.status)).toEqual(['queued']);
    } finally {
      await other.stop();
    }
  });
});
