import { fakeMp4, pollUntilSettled, readStream, taggedBase64, taggedFrame, useFakeVideoUpstream, videoRequest } from '@gateway/testkit';
import { startFakeVeo } from './testing';
import { convertToGoogleVideo } from './convert-to-google-video';
import { createGoogleProvider } from './google-provider';
import { decodeVeoRef } from './google-video-model';

const up = useFakeVideoUpstream(
  (clock) => startFakeVeo({ queuedMs: 0, runningMs: 120, redirectDownloads: true, now: clock.now }),
  (fake) => createGoogleProvider({ baseUrl: fake.url, apiKey: fake.apiKey }),
);

describe('convertToGoogleVideo', () => {
  it('maps frames, reference images and parameters as the @google/genai SDK would send them', () => {
    const body = convertToGoogleVideo(
      videoRequest({
        prompt: 'p',
        firstFrame: taggedFrame(720, 1280, 'f'),
        lastFrame: taggedFrame(720, 1280, 'l'),
        aspectRatio: 'adaptive',
        durationSeconds: 8,
        resolution: '1080p',
      }),
    );
    expect(body).toEqual({
      instances: [
        {
          prompt: 'p',
          image: { bytesBase64Encoded: taggedBase64('f'), mimeType: 'image/png' },
          lastFrame: { bytesBase64Encoded: taggedBase64('l'), mimeType: 'image/png' },
        },
      ],
      parameters: { sampleCount: 1, durationSeconds: 8, aspectRatio: '9:16', resolution: '1080p' },
    });
    const refs = convertToGoogleVideo(videoRequest({ referenceImages: [taggedFrame(1, 1, 'r')] })).instances[0]!.referenceImages;
    expect(refs).toEqual([{ image: { bytesBase64Encoded: taggedBase64('r'), mimeType: 'image/png' }, referenceType: 'asset' }]);
  });

  it('check() refuses what Veo cannot render', () => {
    const check = up.provider.video.check!;
    expect(() => check(videoRequest({ resolution: '480p' }))).toThrow(
      expect.objectContaining({ code: 'resolution_not_supported', reason: 'invalid_request' }),
    );
    expect(() => check(videoRequest({ aspectRatio: '1:1' }))).toThrow(expect.objectContaining({ code: 'aspect_ratio_not_supported' }));
    expect(() => check(videoRequest({ durationSeconds: 5 }))).toThrow(expect.objectContaining({ code: 'duration_not_supported' }));
    expect(() => check(videoRequest({ durationSeconds: 5, upstreamModel: 'veo-2.0-generate-001' }))).not.toThrow();
    expect(() => check(videoRequest({ referenceImages: [1, 2, 3, 4].map((i) => taggedFrame(1, 1, String(i))) }))).toThrow(
      expect.objectContaining({ code: 'too_many_reference_images' }),
    );
  });
});

describe('GoogleVideoModel against the fake Veo', () => {
  it('predictLongRunning → operation → download through a redirect, the key never sent to the storage host', async () => {
    const ref = await up.provider.video.start(
      videoRequest({ prompt: 'veo ok', upstreamModel: 'veo-3.0-generate-001', aspectRatio: '9:16', durationSeconds: 8 }),
      { taskId: 't' },
    );
    // the ref is the operation name alone: the request's shape is not kept to be passed off as the delivered one
    expect(ref).toMatch(/^models\/veo-3\.0-generate-001\/operations\/veo[a-z0-9]+$/);
    const name = decodeVeoRef(ref);
    expect(name).toBe(ref);
    const created = up.fake.api.requests.find((r) => r.method === 'POST')!;
    expect(created.path).toBe('/v1beta/models/veo-3.0-generate-001:predictLongRunning');
    expect(created.headers['x-goog-api-key']).toBe(up.fake.apiKey);

    const done = await pollUntilSettled(up.provider.video, ref, { clock: up.clock });
    if (done.state !== 'succeeded') throw new Error(JSON.stringify(done));
    // the operation states no size, length or frame rate: none is stated (the worker measures the stored file)
    const { width, height, durationSeconds, fps } = done.artifact;
    expect({ width, height, durationSeconds, fps }).toEqual({});
    const bytes = await readStream(await done.artifact.open());
    expect(bytes).toEqual(fakeMp4(name.split('/').at(-1)!));
    expect(up.fake.api.requests.some((r) => r.path.endsWith(':download') && r.headers['x-goog-api-key'] === up.fake.apiKey)).toBe(true);
    expect(up.fake.storage.requests).toHaveLength(1);
    expect(up.fake.keysSeenByStorage()).toBe(0);
  });

  it('operation errors and RAI filtering end as failures with the upstream status word', async () => {
    const failed = await up.settle(videoRequest({ prompt: 'x [fail]' }));
    expect(failed).toMatchObject({ state: 'failed', code: 'INVALID_ARGUMENT', message: expect.stringContaining('fake Veo') });
    const filtered = await up.settle(videoRequest({ prompt: 'x [filtered]' }));
    expect(filtered).toMatchObject({ state: 'failed', code: 'content_filtered', message: expect.stringContaining('safety filter') });
    const expired = await up.settle(videoRequest({ prompt: 'x [expire]' }));
    expect(expired).toMatchObject({ state: 'failed', code: 'DEADLINE_EXCEEDED' });
  });

  it('a 429 while polling is rate_limited with the Retry-After; a forgotten operation is not retryable', async () => {
    const ref = await up.provider.video.start(videoRequest({ prompt: 'rl [slow]' }), { taskId: 't' });
    up.fake.api.failNext('poll', 1, { status: 429, retryAfterSeconds: 3 });
    await expect(up.provider.video.status(ref, { taskId: 't' })).rejects.toMatchObject({ reason: 'rate_limited', retryAfterSeconds: 3 });
    expect(await up.provider.video.status(ref, { taskId: 't' })).toMatchObject({ state: 'pending' });
    await expect(up.provider.video.status('models/veo/operations/nope', { taskId: 't' })).rejects.toMatchObject({
      code: 'upstream_task_not_found',
      retryable: false,
    });
    await expect(up.provider.video.status('../../etc|1x1|1', { taskId: 't' })).rejects.toMatchObject({ code: 'operation_not_found' });
    await expect(up.provider.video.status('models/veo/operations/x|junk', { taskId: 't' })).rejects.toMatchObject({
      code: 'operation_not_found',
    });
  });

  it('the ref is the operation name alone: a requested shape after it (name|WxH|s, rewritten in stored tasks by migration 032) is refused', async () => {
    const ref = await up.provider.video.start(videoRequest({ prompt: 'ref', upstreamModel: 'veo-3.1-generate-preview' }), { taskId: 't' });
    expect(decodeVeoRef(ref)).toBe(ref);
    expect(() => decodeVeoRef(`${ref}|1280x720|4`)).toThrow(expect.objectContaining({ code: 'operation_not_found' }));
  });
});

describe('Veo 3.1 parameters', () => {
  const veo31 = (over: Parameters<typeof videoRequest>[0] = {}) =>
    videoRequest({ upstreamModel: 'veo-3.1-generate-preview', durationSeconds: 8, ...over });

  it('sends negativePrompt, seed and the configured personGeneration (allow_all narrowed to allow_adult with images)', () => {
    const text = convertToGoogleVideo(veo31({ negativePrompt: 'no rain', seed: 42 }), { personGeneration: 'allow_all' });
    expect(text.parameters).toEqual({
      sampleCount: 1,
      durationSeconds: 8,
      aspectRatio: '16:9',
      resolution: '720p',
      negativePrompt: 'no rain',
      seed: 42,
      personGeneration: 'allow_all',
    });
    const withFrame = convertToGoogleVideo(veo31({ firstFrame: taggedFrame(4, 3, 'f') }), { personGeneration: 'allow_all' });
    expect(withFrame.parameters.personGeneration).toBe('allow_adult');
    expect(convertToGoogleVideo(veo31()).parameters).not.toHaveProperty('personGeneration');
  });

  it('check(): 4k on 3.1 only; 1080p, 4k and reference images need 8 s; references and last frames need 3.1', () => {
    const check = up.provider.video.check!;
    expect(() => check(veo31({ resolution: '4k' }))).not.toThrow();
    expect(() => check(veo31({ resolution: '4k', upstreamModel: 'veo-3.0-generate-001' }))).toThrow(
      expect.objectContaining({ code: 'resolution_not_supported' }),
    );
    expect(() => check(veo31({ resolution: '1080p', durationSeconds: 6 }))).toThrow(
      expect.objectContaining({ code: 'duration_not_supported' }),
    );
    expect(() => check(veo31({ referenceImages: [taggedFrame(1, 1, 'r')], durationSeconds: 4 }))).toThrow(
      expect.objectContaining({ code: 'duration_not_supported' }),
    );
    expect(() => check(veo31({ referenceImages: [taggedFrame(1, 1, 'r')], upstreamModel: 'veo-3.0-generate-001' }))).toThrow(
      expect.objectContaining({ code: 'reference_images_not_supported' }),
    );
    expect(() =>
      check(veo31({ firstFrame: taggedFrame(1, 1, 'f'), lastFrame: taggedFrame(1, 1, 'l'), upstreamModel: 'veo-3.0-fast-generate-001' })),
    ).toThrow(expect.objectContaining({ code: 'last_frame_not_supported' }));
    expect(() => check(veo31({ model: 'x', upstreamModel: 'veo-3.1-fast-generate-preview', resolution: '1080p' }))).not.toThrow();
  });

  it('the fake Veo accepts what check() lets through: reference images, 1080p at 8 s, and personGeneration', async () => {
    const p = createGoogleProvider({ baseUrl: up.fake.url, apiKey: up.fake.apiKey, options: { veoPersonGeneration: 'allow_all' } });
    try {
      const req = veo31({ prompt: 'veo 3.1 refs', resolution: '1080p', referenceImages: [taggedFrame(1, 1, 'a'), taggedFrame(1, 1, 'b')] });
      p.video.check!(req);
      const done = await pollUntilSettled(p.video, await p.video.start(req, { taskId: 't' }), { clock: up.clock });
      expect(done.state).toBe('succeeded');
      const sent = JSON.parse(
        up.fake.api.requests
          .filter((r) => r.method === 'POST')
          .at(-1)!
          .raw.toString(),
      ) as { parameters: Record<string, unknown> };
      expect(sent.parameters).toMatchObject({ resolution: '1080p', durationSeconds: 8, personGeneration: 'allow_adult' });
      expect(() =>
        createGoogleProvider({ baseUrl: up.fake.url, apiKey: up.fake.apiKey, options: { veoPersonGeneration: 'everyone' } }),
      ).toThrow(expect.objectContaining({ field: 'options.veoPersonGeneration' }));
    } finally {
      p.close();
    }
  });
});
