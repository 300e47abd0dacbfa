import request from 'supertest';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway } from './support/test-gateway';

/** The capabilities extension of the model entries, through the real app: OpenAI's and Gemini's shapes. */
let gw: TestGateway;
const PRICES = { '480p': 0.5, '720p': 1, '1080p': 2, '4k': 4 };
beforeAll(async () => {
  gw = await startTestGateway({ listen: false, config: withPricing(testConfigFile(), { 'sim-video-2.0': { perVideoSecond: PRICES } }) });
});
afterAll(async () => {
  await gw.stop();
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe('GET /v1/models/{id}: video_capabilities', () => {
  it('a priced 2.0 standard model: the limits table and its prices', async () => {
    const res = await request(gw.app).get('/v1/models/sim-video-2.0').set(bearer(ALPHA_KEY));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: 'sim-video-2.0',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'gateway',
      video_capabilities: {
        supported_durations: range(4, 15),
        min_duration_seconds: 4,
        max_duration_seconds: 15,
        supported_resolutions: ['480p', '720p', '1080p', '4k'],
        supported_aspect_ratios: ['adaptive', '16:9', '4:3', '1:1', '3:4', '9:16', '21:9'],
        generate_audio: true,
        input_modes: ['text', 'first_frame', 'first_last_frame', 'reference_images'],
        max_reference_images: 9,
        frames_require_adaptive_ratio: false,
        price_per_second: PRICES,
        defaults: { duration_seconds: 5, resolution: '720p', aspect_ratio: 'adaptive', generate_audio: true },
      },
    });
  });

  it('an unpriced fast model: fewer resolutions, null price; text and image entries carry no extension', async () => {
    const fast = (await request(gw.app).get('/v1/models/sim-video-2.0-fast').set(bearer(ALPHA_KEY))).body;
    expect(fast.video_capabilities).toMatchObject({ supported_resolutions: ['480p', '720p'], price_per_second: null });
    for (const id of ['sim-chat', 'sim-image']) {
      const body = (await request(gw.app).get(`/v1/models/${id}`).set(bearer(ALPHA_KEY))).body;
      expect(body.id).toBe(id);
      expect(body).not.toHaveProperty('video_capabilities');
    }
  });

  it("the list's video entries carry it too, and stay filtered by the key's group", async () => {
    const alpha = (await request(gw.app).get('/v1/models').set(bearer(ALPHA_KEY))).body.data as Array<Record<string, any>>;
    expect(alpha.map((m) => m.id)).not.toContain('sim-video-2.5');
    expect(alpha.find((m) => m.id === 'sim-video-2.0')!.video_capabilities.price_per_second).toEqual(PRICES);
    const res = await request(gw.app).get('/v1/models/sim-video-2.5').set(bearer(ALPHA_KEY));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('model_not_found');
    const beta = (await request(gw.app).get('/v1/models/sim-video-2.5').set(bearer(BETA_KEY))).body;
    expect(beta.video_capabilities).toMatchObject({
      supported_durations: range(4, 30),
      max_reference_images: 30,
      frames_require_adaptive_ratio: true,
    });
  });
});

describe('Gemini entries: videoCapabilities', () => {
  it('GET /v1beta/models/{model} and the list entries', async () => {
    const one = await request(gw.app).get('/v1beta/models/sim-video-2.0').set('x-goog-api-key', ALPHA_KEY);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      name: 'models/sim-video-2.0',
      supportedGenerationMethods: ['predictLongRunning'],
      videoCapabilities: {
        supportedDurations: range(4, 15),
        supportedResolutions: ['480p', '720p', '1080p', '4k'],
        generateAudio: true,
        inputModes: ['text', 'first_frame', 'first_last_frame', 'reference_images'],
        maxReferenceImages: 9,
        pricePerSecond: PRICES,
        defaults: { durationSeconds: 5, resolution: '720p', aspectRatio: 'adaptive', generateAudio: true },
      },
    });
    const list = (await request(gw.app).get('/v1beta/models').set('x-goog-api-key', ALPHA_KEY)).body.models as Array<Record<string, any>>;
    expect(list.map((m) => m.name)).not.toContain('models/sim-video-2.5');
    expect(list.find((m) => m.name === 'models/sim-video-2.0-fast')!.videoCapabilities.supportedResolutions).toEqual(['480p', '720p']);
    expect(list.find((m) => m.name === 'models/sim-chat')).not.toHaveProperty('videoCapabilities');
    const hidden = await request(gw.app).get('/v1beta/models/sim-video-2.5').set('x-goog-api-key', ALPHA_KEY);
    expect(hidden.status).toBe(404);
  });

  it('what the entry lists is what a create accepts: the edges of each listed range', async () => {
    const caps = (await request(gw.app).get('/v1beta/models/sim-video-2.0-fast').set('x-goog-api-key', ALPHA_KEY)).body.videoCapabilities;
    const create = (parameters: Record<string, unknown>) =>
      request(gw.app)
        .post('/v1beta/models/sim-video-2.0-fast:predictLongRunning')
        .set('x-goog-api-key', ALPHA_KEY)
        .send({ instances: [{ prompt: 'a fox' }], parameters });
    const max = caps.maxDurationSeconds as number;
    expect((await create({ durationSeconds: max, resolution: caps.supportedResolutions.at(-1) })).status).toBe(200);
    expect((await create({ durationSeconds: caps.minDurationSeconds })).status).toBe(200);
    const tooLong = await create({ durationSeconds: max + 1 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ code: 'invalid_duration', message: expect.stringContaining(`to ${max}`) });
    expect((await create({ resolution: '1080p' })).body.code).toBe('invalid_resolution');
  });
});
