import {
  describeVideoModelConformance,
  fakeMp4,
  fakeVideoConformanceBase,
  readStream,
  taggedDataUrl,
  taggedFrame,
  useFakeVideoUpstream,
  videoRequest,
} from '@gateway/testkit';
import { RUNWAY_API_VERSION, startFakeRunway } from './testing';
import { convertToRunwayTask } from './convert-to-runway-task';
import { runwayProvider } from './runway-provider';

const req = (over: Parameters<typeof videoRequest>[0] = {}) => videoRequest({ durationSeconds: 5, upstreamModel: 'gen4_turbo', ...over });

describe('convertToRunwayTask', () => {
  it('text → text_to_video; a first frame → image_to_video; first and last → positioned promptImage; ratios in pixels', () => {
    expect(convertToRunwayTask(req({ upstreamModel: 'veo3.1', durationSeconds: 8, resolution: '1080p', aspectRatio: '9:16' }))).toEqual({
      path: '/v1/text_to_video',
      body: { model: 'veo3.1', promptText: 'a red kite', ratio: '1080:1920', duration: 8 },
    });
    expect(convertToRunwayTask(req({ firstFrame: taggedFrame(800, 800, 'f'), aspectRatio: 'adaptive' })).body).toEqual({
      model: 'gen4_turbo',
      promptText: 'a red kite',
      promptImage: taggedDataUrl('f'),
      ratio: '960:960',
      duration: 5,
    });
    expect(
      convertToRunwayTask(req({ firstFrame: taggedFrame(4, 3, 'f'), lastFrame: taggedFrame(4, 3, 'l'), aspectRatio: '4:3' })).body
        .promptImage,
    ).toEqual([
      { uri: taggedDataUrl('f'), position: 'first' },
      { uri: taggedDataUrl('l'), position: 'last' },
    ]);
  });
});

describe('RunwayVideoModel against the fake Runway', () => {
  const up = useFakeVideoUpstream(
    (clock) => startFakeRunway({ queuedMs: 60, runningMs: 80, now: clock.now }),
    (fake) => runwayProvider.create({ baseUrl: fake.url, apiKey: fake.apiKey }),
  );

  it('check() refuses what Runway cannot render', () => {
    const check = up.provider.video.check!;
    expect(() => check(req({ resolution: '480p' }))).toThrow(expect.objectContaining({ code: 'resolution_not_supported' }));
    expect(() => check(req({ resolution: '1080p', aspectRatio: '1:1' }))).toThrow(
      expect.objectContaining({ code: 'aspect_ratio_not_supported' }),
    );
    expect(() => check(req({ durationSeconds: 8 }))).toThrow(expect.objectContaining({ code: 'duration_not_supported' }));
    expect(() => check(req({ durationSeconds: 8, upstreamModel: 'veo3.1' }))).not.toThrow();
  });

  it('sends X-Runway-Version and the key, reads PENDING → RUNNING (progress) → SUCCEEDED, downloads output[0] without the key', async () => {
    const ref = await up.provider.video.start(req({ prompt: 'runway ok' }), { taskId: 't' });
    expect(ref).toMatch(/^rw[a-z0-9]+$/);
    const created = up.fake.api.requests.find((r) => r.method === 'POST')!;
    expect(created.headers).toMatchObject({ authorization: `Bearer ${up.fake.apiKey}`, 'x-runway-version': RUNWAY_API_VERSION });
    const seen: Array<number | undefined> = [];
    for (;;) {
      const st = await up.provider.video.status(ref, { taskId: 't' });
      if (st.state !== 'pending') {
        if (st.state !== 'succeeded') throw new Error(JSON.stringify(st));
        // the task names its output URLs only: no shape is stated (the worker measures the file)
        const { width, height, durationSeconds, fps } = st.artifact;
        expect({ width, height, durationSeconds, fps }).toEqual({});
        expect(await readStream(await st.artifact.open())).toEqual(fakeMp4(ref));
        break;
      }
      if (st.running) seen.push(st.progress);
      up.clock.advance(20);
    }
    expect(seen.some((p) => typeof p === 'number' && p > 0 && p < 100)).toBe(true);
    expect(up.fake.storage.credentialsSeen()).toBe(0);
  });

  it('the ref is the task id alone: a requested shape after it (id|WxH|s, rewritten by migration 032) is refused', async () => {
    const ref = await up.provider.video.start(req({ prompt: 'plain' }), { taskId: 't' });
    expect(await up.provider.video.status(ref, { taskId: 't' })).toMatchObject({ state: expect.any(String) });
    for (const bad of [`${ref}|1280x720|5`, `${ref}|1280x720`])
      await expect(up.provider.video.status(bad, { taskId: 't' })).rejects.toMatchObject({ code: 'upstream_task_not_found' });
  });

  it('keeps failureCode; DELETE cancels a THROTTLED task; a credits refusal is quota', async () => {
    const failed = await up.settle(req({ prompt: 'x [filtered]' }));
    expect(failed).toMatchObject({ state: 'failed', code: 'SAFETY.OUTPUT.VIDEO' });
    const held = await up.provider.video.start(req({ prompt: 'x [hold]' }), { taskId: 't' });
    expect(await up.provider.video.status(held, { taskId: 't' })).toEqual({ state: 'pending', running: false });
    await up.provider.video.cancel!(held);
    expect(await up.provider.video.status(held, { taskId: 't' })).toMatchObject({ state: 'failed', code: 'cancelled' });
    up.fake.api.failNext('create', 1, { status: 400, body: { error: 'You do not have enough credits to run this task.' } });
    await expect(up.provider.video.start(req(), { taskId: 't' })).rejects.toMatchObject({ code: 'upstream_quota_exhausted' });
  });
});

describeVideoModelConformance('runway', async () => {
  const { fake, base } = await fakeVideoConformanceBase(
    (clock) => startFakeRunway({ queuedMs: 60, runningMs: 100, now: clock.now }),
    (f, apiKey = f.apiKey) => runwayProvider.create({ baseUrl: f.url, apiKey }),
    'key_wrong_runway',
  );
  return {
    ...base,
    rateLimitNextPoll: (s) => fake.rateLimitNext('poll', s),
    rateLimitHasRetryAfter: true,
    fail: { prompt: 'conformance [fail]', code: 'INTERNAL.BAD_OUTPUT.CODE01' },
    holdPrompt: '[hold]',
    reportsQueue: true,
    request: { durationSeconds: 5, upstreamModel: 'gen4_turbo' },
    // the task object names output URLs only: no size, length or frame rate
    statedShape: [],
    unknownRef: 'rwnosuchtask',
    secrets: [fake.apiKey],
  };
});
