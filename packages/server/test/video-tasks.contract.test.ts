import request from 'supertest';
import type { Express } from 'express';
import { ALPHA_KEY, BETA_KEY, type TestGateway } from './support/test-gateway';
import { RUNNING_MODEL, SLOW_MODEL, startVideoGateway, waitForTask } from './support/video-gateways';
import { dataUrl, inline, pngImage } from './support/video-fixtures';

// `app` is the gateway under test in each block: without the worker for validation, with it where tasks must
// finish, and one with a cap of 2 active tasks for the 429s.
let app: Express;
let idle: TestGateway;
let working: TestGateway;
let capped: TestGateway;
// One after another: three PGlite databases booting at once on a loaded 2-core machine outwait the pool's 60 s.
beforeAll(async () => {
  idle = await startVideoGateway();
  working = await startVideoGateway({ worker: true });
  capped = await startVideoGateway({ maxActiveTasks: 2 });
  app = idle.app;
});
afterAll(async () => {
  await Promise.all([idle.stop(), working.stop(), capped.stop()]);
});
const on = (gw: () => TestGateway) => {
  beforeAll(() => {
    app = gw().app;
  });
  afterAll(() => {
    app = idle.app;
  });
};

const BASE = '/v1/contents/generations/tasks';
const auth = (key = BETA_KEY) => ({ Authorization: `Bearer ${key}` });
const frame = dataUrl(pngImage(1280, 720));
const text = (t = 'a cat on a piano') => ({ type: 'text', text: t });
const image = (role: string, url = frame) => ({ type: 'image_url', image_url: { url }, role });
const create = (body: Record<string, unknown>, key = BETA_KEY) => request(app).post(BASE).set(auth(key)).send(body);

async function accepted(body: Record<string, unknown>, key = BETA_KEY): Promise<string> {
  const res = await create(body, key);
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { id: expect.stringMatching(/^[a-z0-9]+$/) } });
  return res.body.id;
}
async function refused(res: request.Response, code: string, status = 400) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ code, message: expect.any(String) });
  return res.body.message as string;
}

describe('POST /v1/contents/generations/tasks', () => {
  // The limit rules themselves (every family, tier and edge) are core's video-limits.test.ts; here, that `duration`
  // and `resolution` reach their rules and the refusals come in this format's shape.
  it('duration and resolution: accepted within the tier, refused past it naming the field', async () => {
    const model = 'sim-video-2.0-fast';
    await accepted({ model, content: [text()], duration: 15, resolution: '720p' });
    expect(await refused(await create({ model, content: [text()], duration: 16 }), 'invalid_duration')).toContain('duration');
    await refused(await create({ model, content: [text()], resolution: '1080p' }), 'invalid_resolution');
  });

  it('ratio from the closed list; 2.5 frames need adaptive', async () => {
    await accepted({ model: 'sim-video-2.0', content: [text()], ratio: '9:16' });
    await refused(await create({ model: 'sim-video-2.0', content: [text()], ratio: '5:4' }), 'invalid_aspect_ratio');
    await accepted({ model: 'sim-video-2.5', content: [text(), image('first_frame')], ratio: 'adaptive' });
    await refused(
      await create({ model: 'sim-video-2.5', content: [text(), image('first_frame')], ratio: '16:9' }),
      'frames_require_adaptive_ratio',
    );
  });

  it('input modes: text, first(+last) frame, reference images; not mixed', async () => {
    await accepted({ model: 'sim-video-2.0', content: [image('first_frame'), image('last_frame')] });
    await accepted({ model: 'sim-video-2.0', content: [text(), image('reference_image'), image('reference_image')] });
    await refused(await create({ model: 'sim-video-2.0', content: [image('last_frame')] }), 'last_frame_requires_first_frame');
    await refused(
      await create({ model: 'sim-video-2.0', content: [image('first_frame'), image('reference_image')] }),
      'reference_images_with_frames',
    );
    await refused(await create({ model: 'sim-video-2.0', content: [] }), 'missing_prompt');
  });

  it('reference audio, reference video and draft tasks get a clear 400', async () => {
    await refused(
      await create({
        model: 'sim-video-2.0',
        content: [text(), { type: 'video_url', video_url: { url: 'https://x.example/v.mp4' }, role: 'reference_video' }],
      }),
      'unsupported_reference_video',
    );
    await refused(
      await create({
        model: 'sim-video-2.0',
        content: [text(), { type: 'audio_url', audio_url: { url: 'https://x.example/a.mp3' }, role: 'reference_audio' }],
      }),
      'unsupported_reference_audio',
    );
    await refused(
      await create({ model: 'sim-video-2.0', content: [{ type: 'draft_task', draft_task: { id: 'x' } }] }),
      'unsupported_draft_task',
    );
  });

  it('scheduling fields: accepted values and refused ones', async () => {
    const id = await accepted({
      model: 'sim-video-2.0',
      content: [text()],
      priority: 3,
      service_tier: 'flex',
      execution_expires_after: 7200,
      generate_audio: false,
    });
    const t = await request(app).get(`${BASE}/${id}`).set(auth());
    expect(t.body).toMatchObject({ priority: 3, service_tier: 'flex', execution_expires_after: 7200, generate_audio: false });
    await refused(await create({ model: 'sim-video-2.0', content: [text()], service_tier: 'gold' }), 'invalid_service_tier');
    await refused(
      await create({ model: 'sim-video-2.0', content: [text()], execution_expires_after: 10 }),
      'invalid_execution_expires_after',
    );
    await refused(await create({ model: 'sim-video-2.0', content: [text()], priority: 'high' }), 'invalid_priority');
    await refused(await create({ model: 'sim-video-2.0', content: [text()], generate_audio: 1 }), 'invalid_generate_audio');
    await refused(await create({ model: 'sim-video-2.0', content: [text()], seed: 11 }), 'unsupported_field');
  });

  it('image URLs: data URLs decoded, http and private addresses refused', async () => {
    await refused(
      await create({ model: 'sim-video-2.0', content: [image('first_frame', 'http://example.com/a.png')] }),
      'unsupported_url_scheme',
    );
    await refused(
      await create({ model: 'sim-video-2.0', content: [image('first_frame', 'https://[::1]/a.png')] }),
      'forbidden_url_address',
    );
    await refused(await create({ model: 'sim-video-2.0', content: [image('middle')] }), 'invalid_image_role');
  });

  it('401 and 503 as {code,message}', async () => {
    await refused(
      await request(app)
        .post(BASE)
        .send({ model: 'sim-video-2.0', content: [text()] }),
      'missing_api_key',
      401,
    );
    await refused(await create({ model: 'sim-video-2.5', content: [text()] }, ALPHA_KEY), 'model_not_in_group', 503);
  });

  it('Idempotency-Key returns the original id', async () => {
    const a = await create({ model: 'sim-video-2.0', content: [text()] }).set('Idempotency-Key', 'vt-idem-1');
    const b = await create({ model: 'sim-video-2.0', content: [text('different')] }).set('Idempotency-Key', 'vt-idem-1');
    expect(b.body).toEqual(a.body);
    expect(b.headers['idempotent-replayed']).toBe('true');
  });
});

describe('GET /v1/contents/generations/tasks/{id}', () => {
  it('every field; requested values while queued', async () => {
    const id = await accepted({ model: 'sim-video-2.0', content: [text()], ratio: 'adaptive', resolution: '480p', duration: 6 });
    const res = await request(app).get(`${BASE}/${id}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      model: 'sim-video-2.0',
      status: 'queued',
      error: null,
      content: {},
      usage: { completion_tokens: 0, total_tokens: 0 },
      output_format: 'mp4',
      framespersecond: 24,
      resolution: '480p',
      ratio: 'adaptive',
      duration: 6,
      generate_audio: true,
      priority: 0,
      service_tier: 'default',
      execution_expires_after: expect.any(Number),
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
  });

  it("an unknown id and another account's id give the same 404", async () => {
    const id = await accepted({ model: 'sim-video-2.0', content: [text()] });
    const other = await request(app).get(`${BASE}/${id}`).set(auth(ALPHA_KEY));
    const unknown = await request(app).get(`${BASE}/nosuchtask000`).set(auth(ALPHA_KEY));
    const msg = await refused(other, 'task_not_found', 404);
    await refused(unknown, 'task_not_found', 404);
    expect(msg.replace(id, 'ID')).toBe(unknown.body.message.replace('nosuchtask000', 'ID'));
  });
});

describe('list and delete', () => {
  it('pages with page_num/page_size and filters by status, model and task_ids', async () => {
    const ids = [
      await accepted({ model: 'sim-video-2.0', content: [text('f1')] }, ALPHA_KEY),
      await accepted({ model: 'sim-video-2.0-fast', content: [text('f2')] }, ALPHA_KEY),
    ];
    const byIds = await request(app).get(`${BASE}?filter.task_ids=${ids[0]}&filter.task_ids=${ids[1]}`).set(auth(ALPHA_KEY));
    expect(byIds.status).toBe(200);
    expect(byIds.body.total).toBe(2);
    expect(byIds.body.items.map((t: { id: string }) => t.id).sort()).toEqual([...ids].sort());
    const fast = await request(app).get(`${BASE}?filter.model=sim-video-2.0-fast&filter.status=queued&page_size=1`).set(auth(ALPHA_KEY));
    expect(fast.body.items).toHaveLength(1);
    expect(fast.body.items[0]).toMatchObject({ model: 'sim-video-2.0-fast', status: 'queued' });
    const page2 = await request(app)
      .get(`${BASE}?filter.task_ids=${ids[0]}&filter.task_ids=${ids[1]}&page_num=2&page_size=1`)
      .set(auth(ALPHA_KEY));
    expect(page2.body).toMatchObject({ total: 2, items: [expect.objectContaining({ id: expect.any(String) })] });
    await refused(await request(app).get(`${BASE}?page_size=0`).set(auth()), 'invalid_page_size');
    await refused(await request(app).get(`${BASE}?filter.status=done`).set(auth()), 'invalid_status_filter');
  });
});

describe('with the worker running', () => {
  on(() => working);

  it('after success: delivered values (adaptive resolved) and content.video_url on PUBLIC_BASE_URL', async () => {
    const id = await accepted({ model: 'sim-video-2.0-fast', content: [text()], duration: 4, resolution: '480p', ratio: 'adaptive' });
    expect(await waitForTask(app, id, BETA_KEY)).toBe('succeeded');
    const res = await request(app).get(`${BASE}/${id}`).set(auth());
    expect(res.body).toMatchObject({
      status: 'succeeded',
      ratio: '16:9',
      resolution: '480p',
      duration: 4,
      framespersecond: 24,
      error: null,
      content: { video_url: `https://gateway.test/v1/videos/${id}/content` },
    });
    expect(res.body.usage).toEqual({
      completion_tokens: Math.round((854 * 480 * 24 * 4) / 1024),
      total_tokens: Math.round((854 * 480 * 24 * 4) / 1024),
    });
    const video = await request(app).head(new URL(res.body.content.video_url).pathname).set(auth());
    expect(video.status).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
  });

  it('a failed generation reads as failed with error {code,message} in all three formats', async () => {
    const id = await accepted({ model: 'sim-video-2.0', content: [text('please [sim:fail]')], duration: 4 });
    expect(await waitForTask(app, id, BETA_KEY)).toBe('failed');
    const task = await request(app).get(`${BASE}/${id}`).set(auth());
    expect(task.body).toMatchObject({ status: 'failed', error: { code: expect.any(String), message: expect.any(String) }, content: {} });
    const video = await request(app).get(`/v1/videos/${id}`).set(auth());
    expect(video.body).toMatchObject({ status: 'failed', error: task.body.error });
    const op = await request(app).get(`/v1beta/models/sim-video-2.0/operations/${id}`).set('x-goog-api-key', BETA_KEY);
    // the operation's error is a google.rpc.Status carrying the same code and message
    expect(op.body).toEqual({
      name: `models/sim-video-2.0/operations/${id}`,
      done: true,
      error: {
        code: 13,
        message: task.body.error.message,
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: task.body.error.code, domain: 'gateway' }],
      },
    });
  });

  it('DELETE: queued → cancelled, running → 409, finished → deleted', async () => {
    const running = await accepted({ model: RUNNING_MODEL, content: [text()] });
    await waitForTask(app, running, BETA_KEY, (s) => s === 'running');
    await refused(await request(app).delete(`${BASE}/${running}`).set(auth()), 'task_running', 409);
    const q = await accepted({ model: SLOW_MODEL, content: [text()] });
    const del = await request(app).delete(`${BASE}/${q}`).set(auth());
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: q, outcome: 'cancelled' });
    const read = await request(app).get(`${BASE}/${q}`).set(auth());
    expect(read.body).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    const gone = await request(app).delete(`${BASE}/${q}`).set(auth());
    expect(gone.body).toEqual({ id: q, outcome: 'deleted' });
    await refused(await request(app).get(`${BASE}/${q}`).set(auth()), 'task_not_found', 404);
  });
});

describe('one task id space: create in one format, read in the other two', () => {
  on(() => working);
  const readAll = async (id: string, model: string) => ({
    gemini: await request(app).get(`/v1beta/models/${model}/operations/${id}`).set('x-goog-api-key', BETA_KEY),
    openai: await request(app).get(`/v1/videos/${id}`).set(auth()),
    tasks: await request(app).get(`${BASE}/${id}`).set(auth()),
  });

  it.each([
    [
      'gemini',
      async () =>
        (
          await request(app)
            .post('/v1beta/models/sim-video-2.0:predictLongRunning')
            .set('x-goog-api-key', BETA_KEY)
            .send({ instances: [{ prompt: 'x', image: inline(pngImage(1280, 720)) }], parameters: { durationSeconds: 4 } })
        ).body.name
          .split('/')
          .pop(),
    ],
    [
      'openai',
      async () =>
        (await request(app).post('/v1/videos').set(auth()).field('model', 'sim-video-2.0').field('prompt', 'x').field('seconds', '4')).body
          .id,
    ],
    ['tasks', async () => accepted({ model: 'sim-video-2.0', content: [text('x')], duration: 4 })],
  ])('created in the %s format', async (_f, make) => {
    const id: string = await make();
    const pending = await readAll(id, 'sim-video-2.0');
    expect(pending.gemini.body).toEqual({ name: `models/sim-video-2.0/operations/${id}`, done: false });
    expect(pending.openai.body).toMatchObject({ id, status: 'queued', seconds: '4' });
    expect(pending.tasks.body).toMatchObject({ id, status: 'queued', duration: 4 });
    expect(await waitForTask(app, id, BETA_KEY)).toBe('succeeded');
    const done = await readAll(id, 'sim-video-2.0');
    expect(done.gemini.body.response.generateVideoResponse.generatedSamples[0].video).toEqual({
      uri: `https://gateway.test/v1beta/files/${id}:download?alt=media`,
      encoding: 'video/mp4',
    });
    expect(done.openai.body).toMatchObject({ status: 'completed', progress: 100 });
    expect(done.tasks.body).toMatchObject({ status: 'succeeded', content: { video_url: `https://gateway.test/v1/videos/${id}/content` } });
    const file = await request(app).get(`/v1beta/files/${id}:download?alt=media`).set('x-goog-api-key', BETA_KEY);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.headers['content-length']).toBe(String(file.body.length));
  });
});

describe('the active-task cap', () => {
  on(() => capped);

  it('past the cap every format answers 429 with Retry-After, in its own body shape', async () => {
    const first = await create({ model: 'sim-video-2.0', content: [text()] }, ALPHA_KEY).set('Idempotency-Key', 'cap-1');
    await accepted({ model: 'sim-video-2.0', content: [text()] }, ALPHA_KEY);
    const tasks = await create({ model: 'sim-video-2.0', content: [text()] }, ALPHA_KEY);
    await refused(tasks, 'too_many_active_tasks', 429);
    const gemini = await request(app)
      .post('/v1beta/models/sim-video-2.0:predictLongRunning')
      .set('x-goog-api-key', ALPHA_KEY)
      .send({ instances: [{ prompt: 'x' }] });
    expect(gemini.status).toBe(429);
    expect(gemini.body).toEqual({ code: 'too_many_active_tasks', message: expect.any(String) });
    const openai = await request(app).post('/v1/videos').set(auth(ALPHA_KEY)).field('model', 'sim-video-2.0').field('prompt', 'x');
    expect(openai.status).toBe(429);
    expect(openai.body.error).toMatchObject({ code: 'too_many_active_tasks', type: 'rate_limit_error' });
    for (const r of [tasks, gemini, openai]) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    // A replayed Idempotency-Key creates nothing, so the cap does not refuse it; another account is not affected.
    const replay = await create({ model: 'sim-video-2.0', content: [text()] }, ALPHA_KEY).set('Idempotency-Key', 'cap-1');
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 200, body: first.body });
    await accepted({ model: 'sim-video-2.0', content: [text()] });
  });
});
