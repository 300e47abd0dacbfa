import {
  describeVideoModelConformance,
  fakeMp4,
  ManualClock,
  pollUntilSettled,
  readStream,
  taggedBase64,
  taggedFrame,
  useFakeVideoUpstream,
  videoRequest,
} from '@gateway/testkit';
import { startFakeKling, verifyHs256 } from './testing';
import { KlingTokens, parseKlingKey, signKlingToken } from './kling-auth';
import { convertToKlingTask } from './convert-to-kling-task';
import { createKlingProvider } from './kling-provider';

describe('Kling authentication', () => {
  it('signs an HS256 JWT with iss = access key, nbf a little in the past and exp 30 min ahead', () => {
    const token = signKlingToken('ak', 'sk', 1_000_000);
    expect(verifyHs256(token, 'sk', 'ak', 1_000_000)).toMatchObject({ ok: true, payload: { iss: 'ak', nbf: 999_995, exp: 1_001_800 } });
    expect(verifyHs256(token, 'other', 'ak', 1_000_000)).toEqual({ ok: false, why: 'signature' });
    expect(verifyHs256(token, 'sk', 'ak', 1_001_800)).toEqual({ ok: false, why: 'expired' });
  });

  it('reuses a token until 10 minutes before it expires, then signs a new one', () => {
    let now = 1_000_000_000;
    const tokens = new KlingTokens('ak', 'sk', () => now);
    const first = tokens.authorization();
    now += 19 * 60_000;
    expect(tokens.authorization()).toBe(first);
    now += 2 * 60_000;
    const second = tokens.authorization();
    expect(second).not.toBe(first);
    expect(verifyHs256(second.slice(7), 'sk', 'ak', Math.floor(now / 1000))).toMatchObject({ ok: true });
  });

  it('apiKey is ACCESS_KEY:SECRET_KEY; anything else is a config error naming apiKey', () => {
    expect(parseKlingKey('a:b:c')).toEqual({ accessKey: 'a', secretKey: 'b:c' });
    expect(() => parseKlingKey('nocolon')).toThrow(expect.objectContaining({ field: 'apiKey' }));
    expect(() => parseKlingKey(':x')).toThrow(expect.objectContaining({ field: 'apiKey' }));
  });
});

describe('convertToKlingTask', () => {
  it('text → text2video with aspect_ratio; 1080p is mode pro; frames go as raw Base64 image / image_tail', () => {
    expect(
      convertToKlingTask(videoRequest({ upstreamModel: 'kling-v2-1', resolution: '1080p', durationSeconds: 10, aspectRatio: '9:16' })),
    ).toEqual({
      model_name: 'kling-v2-1',
      prompt: 'a red kite',
      mode: 'pro',
      duration: '10',
      aspect_ratio: '9:16',
    });
    const i2v = convertToKlingTask(
      videoRequest({ firstFrame: taggedFrame(4, 3, 'f'), lastFrame: taggedFrame(4, 3, 'l'), aspectRatio: 'adaptive', durationSeconds: 5 }),
    );
    expect(i2v).toEqual({
      model_name: 'up-model',
      prompt: 'a red kite',
      image: taggedBase64('f'),
      image_tail: taggedBase64('l'),
      mode: 'std',
      duration: '5',
    });
  });
});

describe('KlingVideoModel against the fake Kling', () => {
  const up = useFakeVideoUpstream(
    (clock) => startFakeKling({ queuedMs: 60, runningMs: 80, now: clock.now }),
    (fake) => createKlingProvider({ baseUrl: fake.url, apiKey: `${fake.accessKey}:${fake.secretKey}` }),
  );

  it('check() refuses what Kling cannot render', () => {
    const check = up.provider.video.check!;
    expect(() => check(videoRequest({ resolution: '480p', durationSeconds: 5 }))).toThrow(
      expect.objectContaining({ code: 'resolution_not_supported' }),
    );
    expect(() => check(videoRequest({ durationSeconds: 6 }))).toThrow(expect.objectContaining({ code: 'duration_not_supported' }));
    expect(() => check(videoRequest({ durationSeconds: 5, aspectRatio: '4:3' }))).toThrow(
      expect.objectContaining({ code: 'aspect_ratio_not_supported' }),
    );
    expect(() => check(videoRequest({ durationSeconds: 5, referenceImages: [taggedFrame(1, 1, 'r')] }))).toThrow(
      expect.objectContaining({ code: 'too_many_reference_images' }),
    );
    expect(() => check(videoRequest({ durationSeconds: 10, resolution: '1080p' }))).not.toThrow();
  });

  it('image2video: created and read on its own route with a valid JWT, the MP4 fetched from storage without it', async () => {
    const ref = await up.provider.video.start(
      videoRequest({ prompt: 'kling i2v', firstFrame: taggedFrame(720, 1280, 'f'), aspectRatio: 'adaptive', durationSeconds: 10 }),
      { taskId: 't' },
    );
    expect(ref).toMatch(/^image2video\/kt[a-z0-9]+$/);
    const created = up.fake.api.requests.find((r) => r.method === 'POST')!;
    expect(created.path).toBe('/v1/videos/image2video');
    const auth = String(created.headers.authorization);
    expect(verifyHs256(auth.slice(7), up.fake.secretKey, up.fake.accessKey, Math.floor(Date.now() / 1000))).toMatchObject({ ok: true });
    const done = await pollUntilSettled(up.provider.video, ref, { clock: up.clock });
    if (done.state !== 'succeeded') throw new Error(JSON.stringify(done));
    // videos[].duration is all Kling states of the shape: no size, no frame rate
    const { width, height, durationSeconds, fps } = done.artifact;
    expect({ width, height, durationSeconds, fps }).toEqual({ durationSeconds: 10 });
    const id = ref.split('/')[1];
    expect(await readStream(await done.artifact.open())).toEqual(fakeMp4(id!));
    expect(up.fake.api.requests.some((r) => r.method === 'GET' && r.path === `/v1/videos/image2video/${id}`)).toBe(true);
    expect(up.fake.storage.credentialsSeen()).toBe(0);
  });

  it('a video reporting a shorter duration is carried as reported; one with no duration states no shape at all', async () => {
    const settle = async (prompt: string) => {
      const done = await up.settle(videoRequest({ prompt, durationSeconds: 10 }));
      if (done.state !== 'succeeded') throw new Error(JSON.stringify(done));
      const { width, height, durationSeconds, fps } = done.artifact;
      return { width, height, durationSeconds, fps };
    };
    expect(await settle('short [delivered:6]')).toEqual({ durationSeconds: 6 });
    expect(await settle('bare [unstated]')).toEqual({});
  });

  it('the ref is the route and id alone: a requested shape after it (route/id|WxH|s, rewritten by migration 032) is refused', async () => {
    const ref = await up.provider.video.start(videoRequest({ prompt: 'plain [unstated]', durationSeconds: 5 }), { taskId: 't' });
    expect(await up.provider.video.status(ref, { taskId: 't' })).toMatchObject({ state: expect.any(String) });
    for (const bad of [`${ref}|1280x720|5`, `${ref}|junk`])
      await expect(up.provider.video.status(bad, { taskId: 't' })).rejects.toMatchObject({ code: 'upstream_task_not_found' });
  });

  it("a refused create keeps Kling's code; balance codes are quota, not a passing rate limit", async () => {
    up.fake.api.failNext('create', 1, { status: 400, body: { code: 1201, message: 'prompt is too long', request_id: 'r1' } });
    await expect(up.provider.video.start(videoRequest({ durationSeconds: 5 }), { taskId: 't' })).rejects.toMatchObject({
      reason: 'invalid_request',
      upstreamCode: '1201',
      message: 'prompt is too long',
    });
    up.fake.api.failNext('create', 1, { status: 429, body: { code: 1102, message: 'resource pack exhausted', request_id: 'r2' } });
    await expect(up.provider.video.start(videoRequest({ durationSeconds: 5 }), { taskId: 't' })).rejects.toMatchObject({
      code: 'upstream_quota_exhausted',
    });
    const filtered = await up.settle(videoRequest({ prompt: 'x [filtered]', durationSeconds: 5 }));
    expect(filtered).toMatchObject({ state: 'failed', code: 'content_filtered' });
  });

  it('an expired token is refused by the fake with code 1004 and mapped to upstream_auth_failed', async () => {
    const stale = createKlingProvider({
      baseUrl: up.fake.url,
      apiKey: `${up.fake.accessKey}:${up.fake.secretKey}`,
      now: () => Date.now() - 3600_000,
    });
    try {
      await expect(stale.video.start(videoRequest({ durationSeconds: 5 }), { taskId: 't' })).rejects.toMatchObject({
        code: 'upstream_auth_failed',
        upstreamCode: '1004',
      });
    } finally {
      stale.close();
    }
  });
});

describeVideoModelConformance('kling', async () => {
  const clock = new ManualClock();
  const fake = await startFakeKling({ queuedMs: 60, runningMs: 100, now: clock.now });
  const key = `${fake.accessKey}:${fake.secretKey}`;
  const good = createKlingProvider({ baseUrl: fake.url, apiKey: key });
  const bad = createKlingProvider({ baseUrl: fake.url, apiKey: `${fake.accessKey}:wrong-secret` });
  return {
    model: good.video,
    badCredentialsModel: bad.video,
    advance: (ms) => clock.advance(ms),
    rateLimitNextPoll: (s) => fake.rateLimitNext('poll', s),
    rateLimitHasRetryAfter: true,
    fail: { prompt: 'conformance [fail]', code: 'generation_failed' },
    reportsQueue: true,
    request: { durationSeconds: 5 },
    // videos[].duration only: no size, no frame rate
    statedShape: ['durationSeconds'],
    unknownRef: 'text2video/ktnosuchtask',
    secrets: [fake.secretKey, key],
    close: async () => {
      good.close();
      bad.close();
      await fake.close();
    },
  };
});
