import type { VideoImage } from '@gateway/core';
import {
  describeVideoModelConformance,
  fakeMp4,
  ManualClock,
  pollUntilSettled,
  readStream,
  startFakeMiniMax,
  videoRequest,
  type FakeMiniMax,
} from '@gateway/testkit';
import { convertToMiniMaxVideo } from './convert-to-minimax-video';
import { createMiniMaxProvider } from './minimax-provider';

const png = (w: number, h: number, tag: string): VideoImage => ({
  mediaType: 'image/png',
  data: Buffer.from(`png:${tag}`),
  width: w,
  height: h,
});
const req = (over: Parameters<typeof videoRequest>[0] = {}) =>
  videoRequest({ durationSeconds: 6, upstreamModel: 'MiniMax-Hailuo-02', ...over });

describe('convertToMiniMaxVideo', () => {
  it('720p is sent as 768P, 1080p as 1080P; frames as data URLs', () => {
    expect(convertToMiniMaxVideo(req())).toEqual({ model: 'MiniMax-Hailuo-02', prompt: 'a red kite', duration: 6, resolution: '768P' });
    const body = convertToMiniMaxVideo(req({ resolution: '1080p', firstFrame: png(4, 3, 'f'), lastFrame: png(4, 3, 'l') }));
    expect(body).toMatchObject({
      resolution: '1080P',
      first_frame_image: `data:image/png;base64,${Buffer.from('png:f').toString('base64')}`,
      last_frame_image: `data:image/png;base64,${Buffer.from('png:l').toString('base64')}`,
    });
  });
});

describe('MiniMaxVideoModel against the fake MiniMax', () => {
  const clock = new ManualClock();
  let fake: FakeMiniMax;
  let provider: ReturnType<typeof createMiniMaxProvider>;
  beforeAll(async () => {
    fake = await startFakeMiniMax({ queuedMs: 60, runningMs: 80, now: clock.now });
    provider = createMiniMaxProvider({ baseUrl: fake.url, apiKey: fake.apiKey });
  });
  afterAll(async () => {
    provider.close();
    await fake.close();
  });

  it('check() refuses what Hailuo cannot render', () => {
    const check = provider.video.check!;
    expect(() => check(req({ durationSeconds: 5 }))).toThrow(expect.objectContaining({ code: 'duration_not_supported' }));
    expect(() => check(req({ durationSeconds: 10, resolution: '1080p' }))).toThrow(
      expect.objectContaining({ code: 'duration_not_supported' }),
    );
    expect(() => check(req({ resolution: '480p' }))).toThrow(expect.objectContaining({ code: 'resolution_not_supported' }));
    expect(() => check(req({ aspectRatio: '9:16' }))).toThrow(expect.objectContaining({ code: 'aspect_ratio_not_supported' }));
    expect(() => check(req({ durationSeconds: 10 }))).not.toThrow();
  });

  it('create → query (Preparing/Queueing → Processing → Success) → files/retrieve → download_url, size from the query', async () => {
    const ref = await provider.video.start(req({ prompt: 'hailuo ok' }), { taskId: 't' });
    expect(ref).toMatch(/^[a-z0-9]+$/);
    const done = await pollUntilSettled(provider.video, ref, { clock });
    expect(done.pendingSeen[0]).toBe(false);
    if (done.state !== 'succeeded') throw new Error(JSON.stringify(done));
    // video_width × video_height is all the query states of the shape: no length, no frame rate
    const { width, height, durationSeconds, fps } = done.artifact;
    expect({ width, height, durationSeconds, fps }).toEqual({ width: 1366, height: 768 });
    expect(await readStream(await done.artifact.open())).toEqual(fakeMp4(ref));
    expect(fake.api.requests.some((r) => r.path === '/v1/files/retrieve')).toBe(true);
    expect(fake.api.requests.every((r) => r.headers.authorization === `Bearer ${fake.apiKey}`)).toBe(true);
    expect(fake.storage.credentialsSeen()).toBe(0);
  });

  it('a query without video_width/video_height states no shape; a ref of an older release (id|WxH|s) still reads', async () => {
    const ref = await provider.video.start(req({ prompt: 'bare [unstated]' }), { taskId: 't' });
    const done = await pollUntilSettled(provider.video, `${ref}|1366x768|6`, { clock });
    if (done.state !== 'succeeded') throw new Error(JSON.stringify(done));
    const { width, height, durationSeconds, fps } = done.artifact;
    expect({ width, height, durationSeconds, fps }).toEqual({});
    expect(await readStream(await done.artifact.open())).toEqual(fakeMp4(ref));
  });

  it('failures come as HTTP 200 with base_resp: invalid params, balance and sensitive output are each mapped', async () => {
    fake.api.failNext('create', 1, { status: 200, body: { base_resp: { status_code: 2013, status_msg: 'invalid params, duration' } } });
    await expect(provider.video.start(req(), { taskId: 't' })).rejects.toMatchObject({
      reason: 'invalid_request',
      upstreamCode: '2013',
      message: 'invalid params, duration',
    });
    fake.api.failNext('create', 1, { status: 200, body: { base_resp: { status_code: 1008, status_msg: 'insufficient balance' } } });
    await expect(provider.video.start(req(), { taskId: 't' })).rejects.toMatchObject({ code: 'upstream_quota_exhausted' });
    const filtered = await pollUntilSettled(provider.video, await provider.video.start(req({ prompt: 'x [filtered]' }), { taskId: 't' }), {
      clock,
    });
    expect(filtered).toMatchObject({ state: 'failed', code: 'content_filtered' });
  });
});

describeVideoModelConformance('minimax', async () => {
  const clock = new ManualClock();
  const fake = await startFakeMiniMax({ queuedMs: 60, runningMs: 100, now: clock.now });
  const good = createMiniMaxProvider({ baseUrl: fake.url, apiKey: fake.apiKey });
  const bad = createMiniMaxProvider({ baseUrl: fake.url, apiKey: 'wrong-minimax-key' });
  return {
    model: good.video,
    badCredentialsModel: bad.video,
    advance: (ms) => clock.advance(ms),
    rateLimitNextPoll: () => fake.rateLimitNext('poll'),
    rateLimitHasRetryAfter: false,
    fail: { prompt: 'conformance [fail]', code: 'generation_failed' },
    reportsQueue: true,
    request: { durationSeconds: 6 },
    // video_width and video_height only: no length, no frame rate
    statedShape: ['width', 'height'],
    unknownRef: '99999999',
    secrets: [fake.apiKey],
    close: async () => {
      good.close();
      bad.close();
      await fake.close();
    },
  };
});
