/**
 * The four newer video upstreams (Kling, MiniMax, DashScope Wan, Runway) through a running gateway with its
 * worker: `POST /v1/videos` → poll → `GET /v1/videos/{id}/content`, each against its fake on 127.0.0.1
 * speaking the provider's wire format. The content is byte-for-byte what the fake's storage host served,
 * the upstream saw its own auth scheme, and a request the upstream cannot render is refused before it is sent.
 */
import request from 'supertest';
import { fakeMp4, type FakeTaskBook } from '@gateway/testkit';
import { startFakeDashScope, type FakeDashScope } from '@gateway/provider-dashscope/testing';
import { startFakeKling, verifyHs256, type FakeKling } from '@gateway/provider-kling/testing';
import { startFakeMiniMax, type FakeMiniMax } from '@gateway/provider-minimax/testing';
import { RUNWAY_API_VERSION, startFakeRunway, type FakeRunway } from '@gateway/provider-runway/testing';
import { binaryBody } from './support/binary-body';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';
import { videoModel } from './support/upstream-video-gateways';
import { waitForTask } from './support/video-gateways';

/** a worker that claims and polls quickly, so a task settles within the test */
const WORKER = { intervalMs: 25, pollMinMs: 50, pollMaxMs: 200 };

let kling: FakeKling;
let minimax: FakeMiniMax;
let dashscope: FakeDashScope;
let runway: FakeRunway;
let gw: TestGateway;

beforeAll(async () => {
  const timing = { queuedMs: 60, runningMs: 120 };
  [kling, minimax, dashscope, runway] = await Promise.all([
    startFakeKling(timing),
    startFakeMiniMax(timing),
    startFakeDashScope(timing),
    startFakeRunway(timing),
  ]);
  const config = testConfigFile({
    providers: [
      { id: 'kling', type: 'kling', baseUrl: kling.url, apiKey: `${kling.accessKey}:${kling.secretKey}` },
      { id: 'hailuo', type: 'minimax', baseUrl: minimax.url, apiKey: minimax.apiKey },
      { id: 'wan', type: 'dashscope', baseUrl: dashscope.url, apiKey: dashscope.apiKey },
      { id: 'runway', type: 'runway', baseUrl: runway.url, apiKey: runway.apiKey },
    ],
    models: [
      videoModel('kling-video', 'kling', 'kling-v2-1-master'),
      videoModel('hailuo-video', 'hailuo', 'MiniMax-Hailuo-02'),
      videoModel('wan-video', 'wan', 'wan2.5-t2v-preview'),
      videoModel('runway-video', 'runway', 'gen4_turbo'),
    ],
    groups: [
      { name: 'default', models: ['*'] },
      { name: 'vip', models: ['*'] },
    ],
    limits: { maxActiveTasksPerAccount: 1000 },
  });
  gw = await startTestGateway({ listen: false, config, env: { videoWorker: WORKER } });
  await gw.startBackground();
});
afterAll(async () => {
  await gw?.stop();
  await Promise.all([kling?.close(), minimax?.close(), dashscope?.close(), runway?.close()]);
});

const auth = { Authorization: `Bearer ${BETA_KEY}` };
/**
 * `delivered`: the seconds the video object reports once done. Kling and DashScope state the rendered length in their
 * answer; MiniMax and Runway do not, so the gateway measures the stored file (the fakes' clip lasts 1 s).
 */
const CASES = [
  { name: 'kling', model: 'kling-video', seconds: '5', delivered: '5', book: () => kling.book },
  { name: 'minimax', model: 'hailuo-video', seconds: '6', delivered: '1', book: () => minimax.book },
  { name: 'dashscope', model: 'wan-video', seconds: '5', delivered: '5', book: () => dashscope.book },
  { name: 'runway', model: 'runway-video', seconds: '5', delivered: '1', book: () => runway.book },
] as const;

function upstreamTaskOf(book: FakeTaskBook, prompt: string): string {
  const t = book.submissions.find((s) => s.prompt === prompt);
  if (!t) throw new Error(`the upstream never received ${prompt}`);
  return t.id;
}

describe('/v1/videos through each newer upstream', () => {
  it.each(CASES)('$name: create → succeeded → content is the upstream MP4, byte for byte', async ({ model, seconds, delivered, book }) => {
    const prompt = `contract via ${model}`;
    const created = await request(gw.app).post('/v1/videos').set(auth).send({ model, prompt, seconds, size: '1280x720' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ object: 'video', status: 'queued', model });
    const status = await waitForTask(gw.app, created.body.id, BETA_KEY);
    expect(status).toBe('succeeded');
    const video = await request(gw.app).get(`/v1/videos/${created.body.id}`).set(auth);
    expect(video.body).toMatchObject({ status: 'completed', seconds: delivered, error: null });
    const content = await binaryBody(request(gw.app).get(`/v1/videos/${created.body.id}/content`).set(auth));
    expect(content.status).toBe(200);
    expect(content.headers['content-type']).toMatch(/^video\/mp4/);
    expect(Buffer.compare(content.body as Buffer, fakeMp4(upstreamTaskOf(book(), prompt)))).toBe(0);
  });

  it('each upstream saw its own auth scheme, and no credential reached a storage host', () => {
    const klingCreate = kling.api.requests.find((r) => r.method === 'POST')!;
    const jwt = String(klingCreate.headers.authorization).replace(/^Bearer /, '');
    expect(verifyHs256(jwt, kling.secretKey, kling.accessKey, Math.floor(Date.now() / 1000))).toMatchObject({ ok: true });
    expect(minimax.api.requests.every((r) => r.headers.authorization === `Bearer ${minimax.apiKey}`)).toBe(true);
    expect(dashscope.api.requests.find((r) => r.method === 'POST')!.headers['x-dashscope-async']).toBe('enable');
    expect(runway.api.requests.every((r) => r.headers['x-runway-version'] === RUNWAY_API_VERSION)).toBe(true);
    for (const f of [kling, minimax, dashscope, runway]) expect(f.storage.credentialsSeen()).toBe(0);
  });

  it('a duration the upstream cannot render is refused at creation in the caller’s format, and nothing is sent', async () => {
    const before = kling.book.submissions.length;
    const res = await request(gw.app)
      .post('/v1/videos')
      .set(auth)
      .send({ model: 'kling-video', prompt: 'seven seconds', seconds: '7', size: '1280x720' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'duration_not_supported' });
    expect(kling.book.submissions.length).toBe(before);
  });

  it('an upstream failure ends the task failed with the upstream code, without the key in it', async () => {
    const created = await request(gw.app)
      .post('/v1/videos')
      .set(auth)
      .send({ model: 'runway-video', prompt: 'contract [filtered]', seconds: '5', size: '1280x720' });
    expect(await waitForTask(gw.app, created.body.id, BETA_KEY)).toBe('failed');
    const video = await request(gw.app).get(`/v1/videos/${created.body.id}`).set(auth);
    expect(video.body.status).toBe('failed');
    expect(JSON.stringify(video.body)).not.toContain(runway.apiKey);
    expect(video.body.error).toMatchObject({ code: 'SAFETY.OUTPUT.VIDEO', message: expect.stringContaining('moderation') });
  });
});
