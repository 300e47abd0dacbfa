import request from 'supertest';
import type { Express } from 'express';
import { binaryBody } from './support/binary-body';
import { ALPHA_KEY, BETA_KEY, type TestGateway } from './support/test-gateway';
import { RUNNING_MODEL, SLOW_MODEL, startVideoGateway, waitForTask } from './support/video-gateways';
import { dataUrl, isMp4, jpegImage, mp4DurationSeconds, pngImage } from './support/video-fixtures';

// `app` is the gateway under test in each block: one without the worker for validation (nothing renders),
// one with the worker where finished videos are needed.
let app: Express;
let idle: TestGateway;
let working: TestGateway;
beforeAll(async () => {
  // one after another: PGlite databases booting at once on a loaded 2-core machine outwait the pool's 60 s
  idle = await startVideoGateway();
  working = await startVideoGateway({ worker: true });
  app = idle.app;
});
afterAll(async () => {
  await Promise.all([idle.stop(), working.stop()]);
});

const landscape = pngImage(1280, 720);
const auth = (key = BETA_KEY) => ({ Authorization: `Bearer ${key}` });

/** Multipart, as the openai SDK always sends. */
function multipart(fields: Record<string, string>, file?: Buffer, key = BETA_KEY) {
  let r = request(app).post('/v1/videos').set(auth(key));
  for (const [k, v] of Object.entries(fields)) r = r.field(k, v);
  if (file) r = r.attach('input_reference', file, { filename: 'frame.png', contentType: 'image/png' });
  return r;
}
const json = (body: Record<string, unknown>, key = BETA_KEY) => request(app).post('/v1/videos').set(auth(key)).send(body);

function expectVideo(body: Record<string, unknown>, over: Record<string, unknown> = {}) {
  expect(body).toEqual({
    id: expect.stringMatching(/^[a-z0-9]+$/),
    object: 'video',
    model: expect.any(String),
    status: 'queued',
    progress: 0,
    created_at: expect.any(Number),
    completed_at: null,
    expires_at: null,
    error: null,
    prompt: expect.anything(),
    remixed_from_video_id: null,
    seconds: expect.any(String),
    size: expect.any(String),
    ...over,
  });
}

async function refused(res: request.Response, code: string, status = 400) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { message: expect.any(String), type: expect.any(String), param: expect.any(String), code } });
  return res.body.error as { message: string; param: string };
}

describe('POST /v1/videos', () => {
  it('multipart text-only (the SDK shape) → a queued video object', async () => {
    const res = await multipart({ model: 'sim-video-2.0', prompt: 'a cat', seconds: '8', size: '720x1280' });
    expect(res.status).toBe(200);
    expectVideo(res.body, { model: 'sim-video-2.0', prompt: 'a cat', seconds: '8', size: '720x1280' });
  });

  it('JSON works too, with defaults 5 s and 1280x720', async () => {
    const res = await json({ model: 'sim-video-2.0', prompt: 'a dog' });
    expect(res.status).toBe(200);
    expectVideo(res.body, { seconds: '5', size: '1280x720', prompt: 'a dog' });
  });

  it('401 in the OpenAI shape', async () => {
    const res = await request(app).post('/v1/videos').send({ model: 'sim-video-2.0', prompt: 'p' });
    await refused(res, 'missing_api_key', 401);
  });

  it('503 for a model outside the key group', async () => {
    await refused(await json({ model: 'sim-video-2.5', prompt: 'p' }, ALPHA_KEY), 'model_not_in_group', 503);
  });

  // The limit rules themselves (every family, tier and edge) are core's video-limits.test.ts; here, that `seconds`
  // reaches its rule and the refusal names it, in OpenAI's shape.
  it('seconds: the last second accepted, one more refused naming "seconds" and the model', async () => {
    expect((await multipart({ model: 'sim-video-2.0', prompt: 'p', seconds: '15' })).status).toBe(200);
    const e = await refused(await multipart({ model: 'sim-video-2.0', prompt: 'p', seconds: '16' }), 'invalid_duration');
    expect(e.param).toBe('seconds');
    expect(e.message).toContain('sim-video-2.0');
  });

  it('seconds must be whole seconds', async () => {
    await refused(await multipart({ model: 'sim-video-2.0', prompt: 'p', seconds: '4.5' }), 'invalid_duration');
  });

  it('size: 720p only', async () => {
    expect((await multipart({ model: 'sim-video-2.0', prompt: 'p', size: '1280x720' })).status).toBe(200);
    const e = await refused(await multipart({ model: 'sim-video-2.0', prompt: 'p', size: '1920x1080' }), 'invalid_size');
    expect(e.message).toContain('1280x720 or 720x1280');
  });

  it('a prompt for text-only generation', async () => {
    await refused(await multipart({ model: 'sim-video-2.0', seconds: '4' }), 'missing_prompt');
    await refused(await json({ model: 'sim-video-2.0', prompt: 3 }), 'invalid_prompt');
    await refused(await json({ prompt: 'p' }), 'missing_model');
  });

  it('unknown fields are refused', async () => {
    await refused(await json({ model: 'sim-video-2.0', prompt: 'p', quality: 'high' }), 'unsupported_field');
  });

  it.each(['sim-video-2.5', 'sim-video-2.0-mini'])('first frame as a file part on %s (matching size)', async (model) => {
    const res = await multipart({ model, prompt: 'p', size: '1280x720', seconds: '4' }, landscape);
    expect(res.status).toBe(200);
    expect(res.body.size).toBe('1280x720');
  });

  it('an image that does not match size → 400 naming both sizes', async () => {
    const e = await refused(
      await multipart({ model: 'sim-video-2.0', prompt: 'p', size: '720x1280' }, landscape),
      'input_reference_size_mismatch',
    );
    expect(e.message).toContain('1280x720');
    expect(e.message).toContain('720x1280');
  });

  it('first frame as a data URL string (JSON) and as the SDK part input_reference[image_url]', async () => {
    expect((await json({ model: 'sim-video-2.0', prompt: 'p', input_reference: dataUrl(landscape) })).status).toBe(200);
    const jpg = jpegImage(720, 1280);
    const res = await multipart({
      model: 'sim-video-2.0',
      prompt: 'p',
      size: '720x1280',
      'input_reference[image_url]': dataUrl(jpg, 'image/jpeg'),
    });
    expect(res.status).toBe(200);
    await refused(
      await json({ model: 'sim-video-2.0', prompt: 'p', input_reference: dataUrl(landscape, 'image/jpeg') }),
      'image_mime_mismatch',
    );
    await refused(await json({ model: 'sim-video-2.0', prompt: 'p', input_reference: 'data:image/png;base64,%%%' }), 'invalid_data_url');
  });

  it('URLs are fetched only over https from public addresses', async () => {
    const http = await refused(
      await json({ model: 'sim-video-2.0', prompt: 'p', input_reference: 'http://example.com/a.png' }),
      'unsupported_url_scheme',
    );
    expect(http.param).toBe('input_reference.image_url');
    await refused(await json({ model: 'sim-video-2.0', prompt: 'p', input_reference: 'https://127.0.0.1/a.png' }), 'forbidden_url_address');
    await refused(
      await multipart({ model: 'sim-video-2.0', prompt: 'p', 'input_reference[image_url]': 'https://169.254.169.254/latest' }),
      'forbidden_url_address',
    );
  });

  it('other reference forms are refused clearly', async () => {
    await refused(
      await multipart({ model: 'sim-video-2.0', prompt: 'p', 'input_reference[file_id]': 'file-abc' }),
      'unsupported_input_reference_file_id',
    );
    await refused(
      await multipart({ model: 'sim-video-2.0', prompt: 'p', input_reference: dataUrl(landscape) }, landscape),
      'too_many_input_references',
    );
    await refused(await multipart({ model: 'sim-video-2.0', prompt: 'p' }, Buffer.from('not an image')), 'invalid_image_data');
  });

  it('edits and extensions are refused; a remix needs an existing video of this account and a prompt', async () => {
    await refused(await request(app).post('/v1/videos/edits').set(auth()).send({ prompt: 'p' }), 'unsupported_video_operation');
    await refused(await request(app).post('/v1/videos/extensions').set(auth()).send({ prompt: 'p' }), 'unsupported_video_operation');
    await refused(await request(app).post('/v1/videos/taskunknown0000/remix').set(auth()).send({ prompt: 'p' }), 'task_not_found', 404);
    const { body: v } = await json({ model: 'sim-video-2.0', prompt: 'source' });
    await refused(await request(app).post(`/v1/videos/${v.id}/remix`).set(auth()).send({}), 'missing_prompt');
    await refused(await request(app).post(`/v1/videos/${v.id}/remix`).set(auth()).send({ prompt: 'p', seconds: '8' }), 'unsupported_field');
    // not completed yet (no worker in this gateway): 409, and the SDK is told not to retry
    const early = await request(app).post(`/v1/videos/${v.id}/remix`).set(auth()).send({ prompt: 'p' });
    await refused(early, 'remix_source_not_completed', 409);
    expect(early.headers['x-should-retry']).toBe('false');
    // another account's video is exactly an unknown one
    await refused(await request(app).post(`/v1/videos/${v.id}/remix`).set(auth(ALPHA_KEY)).send({ prompt: 'p' }), 'task_not_found', 404);
  });

  it('Idempotency-Key replays the original video', async () => {
    const a = await json({ model: 'sim-video-2.0', prompt: 'idem' }).set('Idempotency-Key', 'oa-idem-1');
    const b = await json({ model: 'sim-video-2.0', prompt: 'idem' }).set('Idempotency-Key', 'oa-idem-1');
    expect(b.body.id).toBe(a.body.id);
    expect(b.headers['idempotent-replayed']).toBe('true');
  });
});

describe('GET /v1/videos/{id}, list, delete', () => {
  it("retrieve, and the same 404 for an unknown id and another account's", async () => {
    const { body: v } = await json({ model: 'sim-video-2.0', prompt: 'mine' });
    const res = await request(app).get(`/v1/videos/${v.id}`).set(auth());
    expect(res.status).toBe(200);
    expectVideo(res.body, { id: v.id, prompt: 'mine' });
    const other = await request(app).get(`/v1/videos/${v.id}`).set(auth(ALPHA_KEY));
    const unknown = await request(app).get('/v1/videos/nosuchtask000').set(auth(ALPHA_KEY));
    const e = await refused(other, 'task_not_found', 404);
    await refused(unknown, 'task_not_found', 404);
    expect(e.message.replace(v.id, 'ID')).toBe(unknown.body.error.message.replace('nosuchtask000', 'ID'));
  });

  it('lists with limit, after and order', async () => {
    const ids: string[] = [];
    for (const p of ['l1', 'l2', 'l3']) ids.push((await json({ model: 'sim-video-2.0-fast', prompt: p }, ALPHA_KEY)).body.id);
    const page1 = await request(app).get('/v1/videos?limit=2&order=asc').set(auth(ALPHA_KEY));
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, first_id: page1.body.data[0].id, last_id: page1.body.data[1].id });
    const page2 = await request(app).get(`/v1/videos?limit=2&order=asc&after=${page1.body.last_id}`).set(auth(ALPHA_KEY));
    const all = [...page1.body.data, ...page2.body.data].map((v: { id: string }) => v.id);
    expect(all.slice(-3)).toEqual(ids);
    const desc = await request(app).get('/v1/videos?limit=1').set(auth(ALPHA_KEY));
    expect(desc.body.data[0].id).toBe(ids[2]);
    await refused(await request(app).get('/v1/videos?limit=0').set(auth()), 'invalid_limit');
    await refused(await request(app).get('/v1/videos?order=up').set(auth()), 'invalid_order');
  });
});

describe('DELETE /v1/videos/{id} with the worker running', () => {
  beforeAll(() => {
    app = working.app;
  });
  afterAll(() => {
    app = idle.app;
  });

  it('cancels a queued task (the simulator keeps it queued); it then reads as failed with error cancelled', async () => {
    const { body: v } = await json({ model: SLOW_MODEL, prompt: 'cancel me' });
    const del = await request(app).delete(`/v1/videos/${v.id}`).set(auth());
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: v.id, object: 'video.deleted', deleted: true });
    const after = await request(app).get(`/v1/videos/${v.id}`).set(auth());
    expect(after.body).toMatchObject({
      status: 'failed',
      error: { code: 'cancelled', message: expect.any(String) },
      completed_at: expect.any(Number),
    });
  });

  it('refuses a running task with 409 task_running and tells the SDK not to retry', async () => {
    const { body: v } = await json({ model: RUNNING_MODEL, prompt: 'busy' });
    await waitForTask(app, v.id, BETA_KEY, (s) => s === 'running');
    const running = await request(app).get(`/v1/videos/${v.id}`).set(auth());
    expect(running.body).toMatchObject({ status: 'in_progress', progress: expect.any(Number) });
    const del = await request(app).delete(`/v1/videos/${v.id}`).set(auth());
    await refused(del, 'task_running', 409);
    expect(del.headers['x-should-retry']).toBe('false');
  });

  it('deletes a finished task with its content', async () => {
    const { body: v } = await json({ model: 'sim-video-2.0-mini', prompt: 'short', seconds: '4' });
    expect(await waitForTask(app, v.id, BETA_KEY)).toBe('succeeded');
    const del = await request(app).delete(`/v1/videos/${v.id}`).set(auth());
    expect(del.body).toEqual({ id: v.id, object: 'video.deleted', deleted: true });
    await refused(await request(app).get(`/v1/videos/${v.id}`).set(auth()), 'task_not_found', 404);
    await refused(await request(app).get(`/v1/videos/${v.id}/content`).set(auth()), 'task_not_found', 404);
  });
});

describe('GET|HEAD /v1/videos/{id}/content with the worker running', () => {
  let id: string;
  beforeAll(async () => {
    app = working.app;
    id = (await json({ model: 'sim-video-2.0', prompt: 'content', seconds: '4' })).body.id;
    expect(await waitForTask(app, id, BETA_KEY)).toBe('succeeded');
  });
  afterAll(() => {
    app = idle.app;
  });

  it('remix: a new video of the same model, seconds and size with the new prompt, naming its source; it completes too', async () => {
    const res = await request(app)
      .post(`/v1/videos/${id}/remix`)
      .set(auth())
      .set('Idempotency-Key', 'remix-1')
      .send({ prompt: 'content, at night' });
    expect(res.status).toBe(200);
    expectVideo(res.body, {
      model: 'sim-video-2.0',
      prompt: 'content, at night',
      seconds: '4',
      size: '1280x720',
      remixed_from_video_id: id,
    });
    const again = await request(app)
      .post(`/v1/videos/${id}/remix`)
      .set(auth())
      .set('Idempotency-Key', 'remix-1')
      .send({ prompt: 'content, at night' });
    expect(again.body.id).toBe(res.body.id);
    expect(await waitForTask(app, res.body.id, BETA_KEY)).toBe('succeeded');
    const done = await request(app).get(`/v1/videos/${res.body.id}`).set(auth());
    expect(done.body).toMatchObject({ status: 'completed', remixed_from_video_id: id });
  });

  it('the completed video object carries delivered size, seconds and timestamps', async () => {
    const res = await request(app).get(`/v1/videos/${id}`).set(auth());
    expect(res.body).toMatchObject({
      status: 'completed',
      progress: 100,
      seconds: '4',
      size: '1280x720',
      error: null,
      completed_at: expect.any(Number),
      expires_at: expect.any(Number),
    });
    expect(res.body.expires_at - res.body.created_at).toBe(7 * 24 * 3600);
  });

  it('is 409 while the task has no video, in the OpenAI shape', async () => {
    const { body: v } = await json({ model: 'sim-video-2.0', prompt: 'not yet' });
    await refused(await request(app).get(`/v1/videos/${v.id}/content`).set(auth()), 'video_not_ready', 409);
  });

  it('streams the MP4 with its length and Accept-Ranges', async () => {
    const res = await binaryBody(request(app).get(`/v1/videos/${id}/content`).set(auth()));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(Number(res.headers['content-length'])).toBe((res.body as Buffer).length);
    expect(isMp4(res.body as Buffer)).toBe(true);
    expect(mp4DurationSeconds(res.body as Buffer)).toBeCloseTo(4, 0);
  });

  it('HEAD gives the headers without a body', async () => {
    const res = await request(app).head(`/v1/videos/${id}/content`).set(auth());
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(100);
    expect(res.text ?? '').toBe('');
  });

  it('Range: 206 with Content-Range, suffix ranges, and 416 past the end', async () => {
    const head = await request(app).head(`/v1/videos/${id}/content`).set(auth());
    const size = Number(head.headers['content-length']);
    const part = await binaryBody(request(app).get(`/v1/videos/${id}/content`).set(auth()).set('Range', 'bytes=4-11'));
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${size}`);
    expect((part.body as Buffer).subarray(0, 4).toString('latin1')).toBe('ftyp');
    expect((part.body as Buffer).length).toBe(8);
    const tail = await request(app).head(`/v1/videos/${id}/content`).set(auth()).set('Range', 'bytes=-10');
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    const past = await request(app).get(`/v1/videos/${id}/content`).set(auth()).set('Range', `bytes=${size}-`);
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    expect(past.body.error.code).toBe('range_not_satisfiable');
  });

  it('variant=thumbnail is an image; anything else is refused; other accounts get 404', async () => {
    const thumb = await request(app).get(`/v1/videos/${id}/content?variant=thumbnail`).set(auth());
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toMatch(/^image\/(jpeg|png)$/);
    await refused(await request(app).get(`/v1/videos/${id}/content?variant=spritesheet`).set(auth()), 'invalid_variant');
    await refused(await request(app).get(`/v1/videos/${id}/content`).set(auth(ALPHA_KEY)), 'task_not_found', 404);
  });
});
