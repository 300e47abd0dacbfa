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
import { startFakeDashScope } from './testing';
import { convertToDashScopeVideo } from './convert-to-dashscope-video';
import { dashscopeProvider } from './dashscope-provider';

const req = (over: Parameters<typeof videoRequest>[0] = {}) =>
  videoRequest({ durationSeconds: 5, upstreamModel: 'wan2.5-t2v-preview', ...over });

describe('convertToDashScopeVideo', () => {
  it('text-to-video sends size width*height from the ratio; image-to-video sends img_url and resolution', () => {
    expect(convertToDashScopeVideo(req({ aspectRatio: '9:16', resolution: '1080p', durationSeconds: 10 }))).toEqual({
      model: 'wan2.5-t2v-preview',
      input: { prompt: 'a red kite' },
      parameters: { size: '1080*1920', duration: 10, watermark: false },
    });
    expect(
      convertToDashScopeVideo(req({ upstreamModel: 'wan2.5-i2v-preview', firstFrame: taggedFrame(4, 3, 'f'), aspectRatio: 'adaptive' })),
    ).toEqual({
      model: 'wan2.5-i2v-preview',
      input: { prompt: 'a red kite', img_url: taggedDataUrl('f') },
      parameters: { resolution: '720P', duration: 5, watermark: false },
    });
  });
});

describe('DashScopeVideoModel against the fake DashScope', () => {
  const up = useFakeVideoUpstream(
    (clock) => startFakeDashScope({ queuedMs: 60, runningMs: 80, now: clock.now }),
    (fake) => dashscopeProvider.create({ baseUrl: fake.url, apiKey: fake.apiKey }),
  );

  it('check() refuses what Wan cannot render', () => {
    const check = up.provider.video.check!;
    expect(() => check(req({ durationSeconds: 6 }))).toThrow(expect.objectContaining({ code: 'duration_not_supported' }));
    expect(() => check(req({ resolution: '4k' }))).toThrow(expect.objectContaining({ code: 'resolution_not_supported' }));
    expect(() => check(req({ resolution: '480p', aspectRatio: '4:3' }))).toThrow(
      expect.objectContaining({ code: 'aspect_ratio_not_supported' }),
    );
    expect(() => check(req({ firstFrame: taggedFrame(2, 2, 'f'), lastFrame: taggedFrame(2, 2, 'l') }))).toThrow(
      expect.objectContaining({ code: 'last_frame_not_supported' }),
    );
    expect(() => check(req({ resolution: '1080p', aspectRatio: '3:4', durationSeconds: 10 }))).not.toThrow();
  });

  it('async create with X-DashScope-Async, PENDING → RUNNING → SUCCEEDED, video_url downloaded without the key', async () => {
    const ref = await up.provider.video.start(req({ prompt: 'wan ok', aspectRatio: '1:1' }), { taskId: 't' });
    expect(ref).toMatch(/^ds[a-z0-9]+$/);
    const created = up.fake.api.requests.find((r) => r.method === 'POST')!;
    expect(created.path).toBe('/api/v1/services/aigc/video-generation/video-synthesis');
    expect(created.headers['x-dashscope-async']).toBe('enable');
    const done = await pollUntilSettled(up.provider.video, ref, { clock: up.clock });
    expect(done.pendingSeen).toEqual(expect.arrayContaining([false, true]));
    if (done.state !== 'succeeded') throw new Error(JSON.stringify(done));
    // usage.video_duration and usage.video_ratio (960*960); no frame rate is stated
    const { width, height, durationSeconds, fps } = done.artifact;
    expect({ width, height, durationSeconds, fps }).toEqual({ width: 960, height: 960, durationSeconds: 5 });
    expect(await readStream(await done.artifact.open())).toEqual(fakeMp4(ref));
    expect(up.fake.storage.credentialsSeen()).toBe(0);
  });

  it('usage reporting fewer seconds is carried; usage without duration or size states no shape; a ref with a shape after the id is refused', async () => {
    const settle = async (prompt: string, over: Parameters<typeof req>[0] = {}) => {
      const ref = await up.provider.video.start(req({ prompt, durationSeconds: 10, ...over }), { taskId: 't' });
      await expect(up.provider.video.status(`${ref}|1280x720|10`, { taskId: 't' })).rejects.toMatchObject({
        code: 'upstream_task_not_found',
      });
      const done = await pollUntilSettled(up.provider.video, ref, { clock: up.clock });
      if (done.state !== 'succeeded') throw new Error(JSON.stringify(done));
      const { width, height, durationSeconds, fps } = done.artifact;
      return { width, height, durationSeconds, fps };
    };
    expect(await settle('short [delivered:7]')).toEqual({ width: 1280, height: 720, durationSeconds: 7 });
    expect(await settle('bare [unstated]')).toEqual({});
    // image-to-video names a resolution tier, not a size: the fake's usage then states the length only
    expect(await settle('i2v', { firstFrame: taggedFrame(4, 3, 'f'), aspectRatio: 'adaptive' })).toEqual({ durationSeconds: 10 });
  });

  it('cancels a PENDING task (CANCELED → failed cancelled); DataInspectionFailed is the content filter', async () => {
    const held = await up.provider.video.start(req({ prompt: 'x [hold]' }), { taskId: 't' });
    await up.provider.video.cancel!(held);
    expect(await up.provider.video.status(held, { taskId: 't' })).toMatchObject({ state: 'failed', code: 'cancelled' });
    up.fake.api.failNext('create', 1, {
      status: 400,
      body: { code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.', request_id: 'r' },
    });
    await expect(up.provider.video.start(req(), { taskId: 't' })).rejects.toMatchObject({
      reason: 'content_policy',
      upstreamCode: 'DataInspectionFailed',
    });
    const filtered = await up.settle(req({ prompt: 'x [filtered]' }));
    expect(filtered).toMatchObject({ state: 'failed', code: 'DataInspectionFailed' });
  });
});

describeVideoModelConformance('dashscope', async () => {
  const { fake, base } = await fakeVideoConformanceBase(
    (clock) => startFakeDashScope({ queuedMs: 60, runningMs: 100, now: clock.now }),
    (f, apiKey = f.apiKey) => dashscopeProvider.create({ baseUrl: f.url, apiKey }),
    'sk-wrong-dashscope',
  );
  return {
    ...base,
    rateLimitNextPoll: (s) => fake.rateLimitNext('poll', s),
    rateLimitHasRetryAfter: true,
    fail: { prompt: 'conformance [fail]', code: 'InternalError.Algo' },
    holdPrompt: '[hold]',
    reportsQueue: true,
    request: { durationSeconds: 5 },
    // usage.video_duration, and usage.video_ratio as W*H for text-to-video; no frame rate
    statedShape: ['width', 'height', 'durationSeconds'],
    unknownRef: 'dsnosuchtask',
    secrets: [fake.apiKey],
  };
});
