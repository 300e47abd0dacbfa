import {
  describeVideoModelConformance,
  fakeMp4,
  fakeVideoConformanceBase,
  pollUntilSettled,
  readStream,
  taggedDataUrl,
  taggedFrame,
  useFakeVideoUpstream,
  videoRequest,
} from '@gateway/testkit';
import { startFakeMiniMax } from './testing';
import { convertToMiniMaxVideo } from './convert-to-minimax-video';
import { minimaxProvider } from './minimax-provider';

const req = (over: Parameters<typeof videoRequest>[0] = {}) =>
  videoRequest({ durationSeconds: 6, upstreamModel: 'MiniMax-Hailuo-02', ...over });

describe('convertToMiniMaxVideo', () => {
  it('720p is sent as 768P, 1080p as 1080P; frames as data URLs', () => {
    expect(convertToMiniMaxVideo(req())).toEqual({ model: 'MiniMax-Hailuo-02', prompt: 'a red kite', duration: 6, resolution: '768P' });
    const body = convertToMiniMaxVideo(req({ resolution: '1080p', firstFrame: taggedFrame(4, 3, 'f'), lastFrame: taggedFrame(4, 3, 'l') }));
    expect(body).toMatchObject({
      resolution: '1080P',
      first_frame_image: taggedDataUrl('f'),
      last_frame_image: taggedDataUrl('l'),
    });
  });
});

describe('MiniMaxVideoModel against the fake MiniMax', () => {
  const up = useFakeVideoUpstream(
    (clock) => startFakeMiniMax({ queuedMs: 60, runningMs: 80, now: clock.now }),
    (fake) => minimaxProvider.create({ baseUrl: fake.url, apiKey: fake.apiKey }),
  );

  it('check() refuses what Hailuo cannot render', () => {
    const check = up.provider.video.check!;
    expect(() => check(req({ durationSeconds: 5 }))).toThrow(expect.objectContaining({ code: 'duration_not_supported' }));
    expect(() => check(req({ durationSeconds: 10, resolution: '1080p' }))).toThrow(
      expect.objectContaining({ code: 'duration_not_supported' }),
    );
    expect(() => check(req({ resolution: '480p' }))).toThrow(expect.objectContaining({ code: 'resolution_not_supported' }));
    expect(() => check(req({ aspectRatio: '9:16' }))).toThrow(expect.objectContaining({ code: 'aspect_ratio_not_supported' }));
    expect(() => check(req({ durationSeconds: 10 }))).not.toThrow();
  });

  it('create → query (Preparing/Queueing → Processing → Success) → files/retrieve → download_url, size from the query', async () => {
    const ref = await up.provider.video.start(req({ prompt: 'hailuo ok' }), { taskId: 't' });
    expect(ref).toMatch(/^[a-z0-9]+$/);
    const done = await pollUntilSettled(up.provider.video, ref, { clock: up.clock });
    expect(done.pendingSeen[0]).toBe(false);
    if (done.state !== 'succeeded') throw new Error(JSON.stringify(done));
    // video_width × video_height is all the query states of the shape: no length, no frame rate
    const { width, height, durationSeconds, fps } = done.artifact;
    expect({ width, height, durationSeconds, fps }).toEqual({ width: 1366, height: 768 });
    expect(await readStream(await done.artifact.open())).toEqual(fakeMp4(ref));
    expect(up.fake.api.requests.some((r) => r.path === '/v1/files/retrieve')).toBe(true);
    expect(up.fake.api.requests.every((r) => r.headers.authorization === `Bearer ${up.fake.apiKey}`)).toBe(true);
    expect(up.fake.storage.credentialsSeen()).toBe(0);
  });

  it('a query without video_width/video_height states no shape; a ref with a requested shape after the id (id|WxH|s) is refused', async () => {
    const ref = await up.provider.video.start(req({ prompt: 'bare [unstated]' }), { taskId: 't' });
    await expect(up.provider.video.status(`${ref}|1366x768|6`, { taskId: 't' })).rejects.toMatchObject({ code: 'upstream_task_not_found' });
    const done = await pollUntilSettled(up.provider.video, ref, { clock: up.clock });
    if (done.state !== 'succeeded') throw new Error(JSON.stringify(done));
    const { width, height, durationSeconds, fps } = done.artifact;
    expect({ width, height, durationSeconds, fps }).toEqual({});
    expect(await readStream(await done.artifact.open())).toEqual(fakeMp4(ref));
  });

  it('failures come as HTTP 200 with base_resp: invalid params, balance and sensitive output are each mapped', async () => {
    up.fake.api.failNext('create', 1, { status: 200, body: { base_resp: { status_code: 2013, status_msg: 'invalid params, duration' } } });
    await expect(up.provider.video.start(req(), { taskId: 't' })).rejects.toMatchObject({
      reason: 'invalid_request',
      upstreamCode: '2013',
      message: 'invalid params, duration',
    });
    up.fake.api.failNext('create', 1, { status: 200, body: { base_resp: { status_code: 1008, status_msg: 'insufficient balance' } } });
    await expect(up.provider.video.start(req(), { taskId: 't' })).rejects.toMatchObject({ code: 'upstream_quota_exhausted' });
    const filtered = await up.settle(req({ prompt: 'x [filtered]' }));
    expect(filtered).toMatchObject({ state: 'failed', code: 'content_filtered' });
  });
});

describeVideoModelConformance('minimax', async () => {
  const { fake, base } = await fakeVideoConformanceBase(
    (clock) => startFakeMiniMax({ queuedMs: 60, runningMs: 100, now: clock.now }),
    (f, apiKey = f.apiKey) => minimaxProvider.create({ baseUrl: f.url, apiKey }),
    'wrong-minimax-key',
  );
  return {
    ...base,
    rateLimitNextPoll: () => fake.rateLimitNext('poll'),
    rateLimitHasRetryAfter: false,
    fail: { prompt: 'conformance [fail]', code: 'generation_failed' },
    reportsQueue: true,
    request: { durationSeconds: 6 },
    // video_width and video_height only: no length, no frame rate
    statedShape: ['width', 'height'],
    unknownRef: '99999999',
    secrets: [fake.apiKey],
  };
});
