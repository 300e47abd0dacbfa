import request from 'supertest';
import type { Express } from 'express';
import { ALPHA_KEY, BETA_KEY, type TestGateway } from './support/test-gateway';
import { startVideoGateway } from './support/video-gateways';
import { inline, jpegImage, pngImage } from './support/video-fixtures';

// The real gateway without its worker: accepted tasks stay queued and nothing renders.
let gw: TestGateway;
let app: Express;
beforeAll(async () => {
  gw = await startVideoGateway();
  app = gw.app;
});
afterAll(async () => {
  await gw.stop();
});

const png = inline(pngImage(1280, 720));
const jpeg = inline(jpegImage(640, 480), 'image/jpeg');
const small = inline(pngImage(16, 16));

const predict = (model: string, body: unknown, key = BETA_KEY) =>
  request(app)
    .post(`/v1beta/models/${model}:predictLongRunning`)
    .set('x-goog-api-key', key)
    .send(body as object);
const text = (parameters: Record<string, unknown> = {}, instance: Record<string, unknown> = {}) => ({
  instances: [{ prompt: 'a cat on a piano', ...instance }],
  parameters,
});

async function accepted(model: string, body: unknown) {
  const res = await predict(model, body);
  expect({ status: res.status, body: res.body }).toEqual({
    status: 200,
    body: { name: expect.stringMatching(new RegExp(`^models/${model.replace(/\./g, '\\.')}/operations/[a-z0-9]+$`)), done: false },
  });
  return res.body.name as string;
}

async function refused(model: string, body: unknown, code: string, status = 400) {
  const res = await predict(model, body);
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ code, message: expect.any(String) });
  return res.body.message as string;
}

describe('POST :predictLongRunning: authentication and models', () => {
  it('accepts x-goog-api-key and a bearer token', async () => {
    await accepted('sim-video-2.0', text());
    const res = await request(app)
      .post('/v1beta/models/sim-video-2.0:predictLongRunning')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send(text());
    expect(res.status).toBe(200);
  });

  it('401 {code,message} without a key or with a wrong one', async () => {
    const none = await request(app).post('/v1beta/models/sim-video-2.0:predictLongRunning').send(text());
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: 'missing_api_key', message: expect.any(String) });
    const wrong = await predict('sim-video-2.0', text(), 'sk-wrong-0000');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'invalid_api_key', message: expect.any(String) });
  });

  it('503 {code,message} for a model outside the key group, 404 model_not_found for an unknown one', async () => {
    const outside = await predict('sim-video-2.5', text(), ALPHA_KEY);
    const unknown = await predict('no-such-video', text(), ALPHA_KEY);
    expect(outside.status).toBe(503);
    expect(outside.body).toEqual({ code: 'model_not_in_group', message: expect.any(String) });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'model_not_found', message: expect.stringContaining('no-such-video') });
  });

  it('400 for a text model', async () => {
    await refused('sim-chat', text(), 'model_kind_mismatch');
  });
});

describe('POST :predictLongRunning: every rule, one accepted and one refused case', () => {
  it('exactly one instance', async () => {
    await accepted('sim-video-2.0', { instances: [{ prompt: 'one' }] });
    await refused('sim-video-2.0', { instances: [{ prompt: 'one' }, { prompt: 'two' }] }, 'invalid_instance_count');
    await refused('sim-video-2.0', { parameters: {} }, 'invalid_instances');
  });

  it('a prompt for text-only generation; an image alone needs none', async () => {
    await accepted('sim-video-2.0', { instances: [{ image: png }] });
    const msg = await refused('sim-video-2.0', { instances: [{}] }, 'missing_prompt');
    expect(msg).toContain('instances[0].prompt');
    await refused('sim-video-2.0', { instances: [{ prompt: 7 }] }, 'invalid_prompt');
  });

  // The limit rules themselves (every family, tier and edge) are core's video-limits.test.ts; here, that each
  // Gemini field reaches its rule and the refusal names the Gemini field, in Gemini's shape.
  it('durationSeconds: the last second accepted, one more refused naming the field, the range and the model', async () => {
    await accepted('sim-video-2.0', text({ durationSeconds: 15 }));
    const msg = await refused('sim-video-2.0', text({ durationSeconds: 16 }), 'invalid_duration');
    expect(msg).toContain('parameters.durationSeconds');
    expect(msg).toContain('4 to 15');
    expect(msg).toContain('sim-video-2.0');
  });

  it('durationSeconds must be whole seconds', async () => {
    await refused('sim-video-2.0', text({ durationSeconds: 5.5 }), 'invalid_duration');
    await refused('sim-video-2.0', text({ durationSeconds: '8' }), 'invalid_duration');
  });

  it('resolution: one the tier has accepted, one it lacks refused with the allowed list', async () => {
    await accepted('sim-video-2.0-fast', text({ resolution: '720p' }));
    const msg = await refused('sim-video-2.0-fast', text({ resolution: '1080p' }), 'invalid_resolution');
    expect(msg).toContain('allowed: 480p, 720p');
  });

  it('aspectRatio from the closed list', async () => {
    await accepted('sim-video-2.0', text({ aspectRatio: '21:9' }));
    await refused('sim-video-2.0', text({ aspectRatio: '2:1' }), 'invalid_aspect_ratio');
  });

  it('2.5 first/last-frame input requires adaptive; the 2.0 family does not', async () => {
    await accepted('sim-video-2.5', text({ aspectRatio: 'adaptive' }, { image: png, lastFrame: jpeg }));
    await refused('sim-video-2.5', text({ aspectRatio: '16:9' }, { image: png }), 'frames_require_adaptive_ratio');
    await accepted('sim-video-2.0-fast', text({ aspectRatio: '16:9' }, { image: png }));
  });

  it('lastFrame requires image', async () => {
    await accepted('sim-video-2.0', text({}, { image: png, lastFrame: png }));
    await refused('sim-video-2.0', text({}, { lastFrame: png }), 'last_frame_requires_first_frame');
  });

  it('reference images are their own mode', async () => {
    await accepted('sim-video-2.0', text({}, { referenceImages: [{ image: small, referenceType: 'ASSET' }] }));
    await refused('sim-video-2.0', text({}, { image: png, referenceImages: [{ image: small }] }), 'reference_images_with_frames');
  });

  it('referenceImages: the most the family takes accepted, one more refused naming the range', async () => {
    const refs = (n: number) => Array.from({ length: n }, () => ({ image: small, referenceType: 'asset' }));
    await accepted('sim-video-2.0', text({}, { referenceImages: refs(9) }));
    const msg = await refused('sim-video-2.0', text({}, { referenceImages: refs(10) }), 'invalid_reference_images');
    expect(msg).toContain('1 to 9');
  });

  it('referenceType asset (or the SDK spelling ASSET) only', async () => {
    await accepted('sim-video-2.0', text({}, { referenceImages: [{ image: small, referenceType: 'asset' }] }));
    await refused('sim-video-2.0', text({}, { referenceImages: [{ image: small, referenceType: 'STYLE' }] }), 'unsupported_reference_type');
    await refused('sim-video-2.0', text({}, { referenceImages: [{ referenceType: 'asset' }] }), 'invalid_reference_image');
  });

  it.each(['sampleCount', 'numberOfVideos'])('%s may only be 1', async (field) => {
    await accepted('sim-video-2.0', text({ [field]: 1 }));
    await refused('sim-video-2.0', text({ [field]: 2 }), 'invalid_sample_count');
  });

  it.each([
    ['seed', text({ seed: 42 }), 'unsupported_seed'],
    ['negativePrompt', text({ negativePrompt: 'dogs' }), 'unsupported_negative_prompt'],
    ['personGeneration', text({ personGeneration: 'allow_adult' }), 'unsupported_person_generation'],
    ['enhancePrompt', text({ enhancePrompt: true }), 'unsupported_enhance_prompt'],
    ['video input (extension)', text({}, { video: { uri: 'https://x.example/v.mp4' } }), 'unsupported_video_input'],
    ['mask', text({}, { mask: { image: png, maskMode: 'INSERT' } }), 'unsupported_mask'],
    ['gs:// image', text({}, { image: { gcsUri: 'gs://bucket/cat.png', mimeType: 'image/png' } }), 'unsupported_gcs_uri'],
    ['gs:// output', text({ storageUri: 'gs://bucket/out/' }), 'unsupported_gcs_uri'],
    ['an unlisted parameter', text({ fps: 30 }), 'unsupported_field'],
    ['an unlisted top-level field', { ...text(), webhookConfig: { uri: 'https://x.example' } }, 'unsupported_field'],
  ])('%s is refused with its own code', async (_n, body, code) => {
    await refused('sim-video-2.5', body, code);
  });

  it('inline images: PNG or JPEG whose bytes match mimeType', async () => {
    await accepted('sim-video-2.0', text({}, { image: jpeg }));
    await refused('sim-video-2.0', text({}, { image: { ...png, mimeType: 'image/webp' } }), 'unsupported_image_mime_type');
    await refused('sim-video-2.0', text({}, { image: { ...png, mimeType: 'image/jpeg' } }), 'image_mime_mismatch');
    await refused('sim-video-2.0', text({}, { image: { ...png, bytesBase64Encoded: 'not base64!' } }), 'invalid_image_base64');
    await refused('sim-video-2.0', text({}, { image: inline(Buffer.from('plain text, no image')) }), 'invalid_image_data');
    await refused('sim-video-2.0', text({}, { image: { mimeType: 'image/png' } }), 'invalid_image');
  });

  it('generateAudio is a boolean', async () => {
    await accepted('sim-video-2.0', text({ generateAudio: false }));
    await refused('sim-video-2.0', text({ generateAudio: 'no' }), 'invalid_generate_audio');
  });

  it('a body that is not JSON is a 400 {code,message}', async () => {
    const res = await request(app)
      .post('/v1beta/models/sim-video-2.0:predictLongRunning')
      .set('x-goog-api-key', BETA_KEY)
      .set('content-type', 'application/json')
      .send('{"instances":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_json', message: expect.any(String) });
  });
});

describe('GET /v1beta/models/{model}/operations/{id}', () => {
  it('polls the name verbatim: done:false while pending', async () => {
    const name = await accepted('sim-video-2.0', text());
    const res = await request(app).get(`/v1beta/${name}`).set('x-goog-api-key', BETA_KEY);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name, done: false });
  });

  it("an unknown id and another account's id give the same 404 {code,message}", async () => {
    const name = await accepted('sim-video-2.0', text());
    const id = name.split('/').pop()!;
    const other = await request(app).get(`/v1beta/${name}`).set('x-goog-api-key', ALPHA_KEY);
    const unknown = await request(app).get('/v1beta/models/sim-video-2.0/operations/nosuchtask000').set('x-goog-api-key', ALPHA_KEY);
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(other.body).toEqual({ code: 'task_not_found', message: expect.any(String) });
    expect(other.body.message.replace(id, 'ID')).toBe(unknown.body.message.replace('nosuchtask000', 'ID'));
  });

  it('401 {code,message} without a key', async () => {
    const res = await request(app).get('/v1beta/models/sim-video-2.0/operations/x');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'missing_api_key', message: expect.any(String) });
  });
});

describe('GET /v1beta/files/{id}:download', () => {
  it('errors are {code,message}: unknown file 404, no video yet 409, alt other than media 400', async () => {
    const name = await accepted('sim-video-2.0', text());
    const id = name.split('/').pop();
    const unknown = await request(app).get('/v1beta/files/nosuchtask000:download?alt=media').set('x-goog-api-key', BETA_KEY);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'task_not_found', message: expect.any(String) });
    const pending = await request(app).get(`/v1beta/files/${id}:download?alt=media`).set('x-goog-api-key', BETA_KEY);
    expect(pending.status).toBe(409);
    expect(pending.body).toEqual({ code: 'video_not_ready', message: expect.any(String) });
    const alt = await request(app).get(`/v1beta/files/${id}:download?alt=json`).set('x-goog-api-key', BETA_KEY);
    expect(alt.status).toBe(400);
    expect(alt.body).toEqual({ code: 'unsupported_alt', message: expect.any(String) });
  });
});

describe('shared /v1beta/models prefix', () => {
  it('only :predictLongRunning is claimed: generateContent and model reads still answer', async () => {
    const gen = await request(app)
      .post('/v1beta/models/sim-chat:generateContent')
      .set('x-goog-api-key', BETA_KEY)
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(gen.status).toBe(200);
    const model = await request(app).get('/v1beta/models/sim-video-2.5').set('x-goog-api-key', BETA_KEY);
    expect(model.status).toBe(200);
  });
});

describe('idempotency', () => {
  it('the same Idempotency-Key returns the original operation; another key makes a new one', async () => {
    const first = await predict('sim-video-2.0', text()).set('Idempotency-Key', 'gem-idem-1');
    const again = await predict('sim-video-2.0', text({ durationSeconds: 9 })).set('Idempotency-Key', 'gem-idem-1');
    const other = await predict('sim-video-2.0', text()).set('Idempotency-Key', 'gem-idem-2');
    expect(again.body.name).toBe(first.body.name);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.name).not.toBe(first.body.name);
  });
});
