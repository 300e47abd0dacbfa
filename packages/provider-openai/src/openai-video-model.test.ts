import type { VideoImage } from '@gateway/core';
import { fakeMp4, pollUntilSettled, readStream, useFakeVideoUpstream, videoRequest } from '@gateway/testkit';
import { startFakeSora } from './testing';
import { createOpenAiProvider } from './openai-provider';

const png = (w: number, h: number): VideoImage => ({ mediaType: 'image/png', data: Buffer.from('png-bytes'), width: w, height: h });

const up = useFakeVideoUpstream(
  (clock) => startFakeSora({ queuedMs: 50, runningMs: 100, now: clock.now }),
  (fake) => createOpenAiProvider({ baseUrl: fake.url, apiKey: fake.apiKey }),
);

describe('Sora capabilities', () => {
  it('check() refuses reference images, a last frame, other durations, sizes and ratios, and a first frame of the wrong size', () => {
    const check = (o: Parameters<typeof videoRequest>[0]) => () =>
      up.provider.video.check!(videoRequest({ upstreamModel: 'sora-2', ...o }));
    expect(check({ referenceImages: [png(1, 1)] })).toThrow(
      expect.objectContaining({ code: 'reference_images_not_supported', reason: 'invalid_request' }),
    );
    expect(check({ firstFrame: png(1280, 720), lastFrame: png(1280, 720) })).toThrow(
      expect.objectContaining({ code: 'last_frame_not_supported' }),
    );
    expect(check({ durationSeconds: 5 })).toThrow(expect.objectContaining({ code: 'duration_not_supported' }));
    expect(check({ resolution: '1080p' })).toThrow(expect.objectContaining({ code: 'resolution_not_supported' }));
    expect(check({ aspectRatio: '4:3' })).toThrow(expect.objectContaining({ code: 'aspect_ratio_not_supported' }));
    expect(check({ firstFrame: png(640, 480), aspectRatio: 'adaptive' })).toThrow(
      expect.objectContaining({ code: 'first_frame_size_mismatch' }),
    );
    expect(check({ firstFrame: png(720, 1280), aspectRatio: 'adaptive', durationSeconds: 8 })).not.toThrow();
    expect(() =>
      up.provider.video.check!(videoRequest({ upstreamModel: 'sora-2-pro', resolution: '1080p', durationSeconds: 12 })),
    ).not.toThrow();
  });
});

describe('OpenAiVideoModel against the fake Sora', () => {
  it('creates with multipart (first frame as a file part), follows queued → in_progress → completed, streams the content', async () => {
    const ref = await up.provider.video.start(
      videoRequest({ upstreamModel: 'sora-2', prompt: 'sora ok', firstFrame: png(720, 1280), aspectRatio: 'adaptive', durationSeconds: 8 }),
      { taskId: 't' },
    );
    expect(ref).toMatch(/^video_/);
    const task = up.fake.book.get(ref)!;
    expect(task.body).toMatchObject({
      model: 'sora-2',
      prompt: 'sora ok',
      seconds: '8',
      size: '720x1280',
      input_reference: { type: 'image/png', name: 'first_frame.png', size: 9 },
    });
    const done = await pollUntilSettled(up.provider.video, ref, { clock: up.clock });
    expect(done.pendingSeen[0]).toBe(false);
    expect(done.pendingSeen).toContain(true);
    if (done.state !== 'succeeded') throw new Error(done.state);
    // the video object's `size` and `seconds`; it names no frame rate, so none is stated
    expect(done.artifact).toMatchObject({ width: 720, height: 1280, durationSeconds: 8 });
    expect(done.artifact.fps).toBeUndefined();
    expect(await readStream(await done.artifact.open())).toEqual(fakeMp4(ref));
    const content = up.fake.api.requests.find((r) => r.path.endsWith('/content'))!;
    expect(content.headers.authorization).toBe(`Bearer ${up.fake.apiKey}`);
  });

  it('a video object reporting fewer seconds than asked: the artifact carries what it reports', async () => {
    const done = await up.settle(videoRequest({ upstreamModel: 'sora-2', prompt: 'short [delivered:4]', durationSeconds: 8 }));
    if (done.state !== 'succeeded') throw new Error(done.state);
    expect(done.artifact).toMatchObject({ width: 1280, height: 720, durationSeconds: 4 });
  });

  it('a video object without `seconds` and `size`: the artifact states no shape (the worker measures the file)', async () => {
    const done = await up.settle(videoRequest({ upstreamModel: 'sora-2', prompt: 'bare [unstated]', durationSeconds: 8 }));
    if (done.state !== 'succeeded') throw new Error(done.state);
    const { width, height, durationSeconds, fps } = done.artifact;
    expect({ width, height, durationSeconds, fps }).toEqual({});
  });

  it('a remix is POST /videos/{source}/remix with the new prompt (JSON), and runs like any video', async () => {
    expect(up.provider.video.remix).toBe(true);
    const source = await up.provider.video.start(videoRequest({ upstreamModel: 'sora-2', prompt: 'the source', durationSeconds: 8 }), {
      taskId: 's',
    });
    expect((await pollUntilSettled(up.provider.video, source, { clock: up.clock })).state).toBe('succeeded');
    const ref = await up.provider.video.start(
      videoRequest({ upstreamModel: 'sora-2', prompt: 'the remix', durationSeconds: 8, remixOf: { taskId: 'task-s', operation: source } }),
      { taskId: 'r' },
    );
    const sent = up.fake.api.requests.at(-1)!;
    expect(sent.path).toBe(`/v1/videos/${source}/remix`);
    expect(JSON.parse(sent.raw.toString('utf8'))).toEqual({ prompt: 'the remix' });
    expect(up.fake.book.get(ref)).toMatchObject({ prompt: 'the remix', body: { remixed_from_video_id: source, seconds: '8' } });
    const done = await pollUntilSettled(up.provider.video, ref, { clock: up.clock });
    if (done.state !== 'succeeded') throw new Error(done.state);
    expect(await readStream(await done.artifact.open())).toEqual(fakeMp4(ref));
    // a source operation that is no Sora id is not found, never a fresh video in its place
    const created = up.fake.api.counts.create;
    await expect(
      up.provider.video.start(
        videoRequest({ upstreamModel: 'sora-2', prompt: 'x', remixOf: { taskId: 'task-s', operation: '../videos' } }),
        {
          taskId: 'x',
        },
      ),
    ).rejects.toMatchObject({ code: 'upstream_task_not_found' });
    expect(up.fake.api.counts.create).toBe(created);
  });

  it('failures keep the upstream code; a deleted video is not found; cancel deletes upstream', async () => {
    const failed = await up.settle(videoRequest({ upstreamModel: 'sora-2', prompt: 'x [fail]' }));
    expect(failed).toMatchObject({ state: 'failed', code: 'video_generation_failed', message: expect.stringContaining('fake Sora') });
    const blocked = await up.settle(videoRequest({ upstreamModel: 'sora-2', prompt: 'x [filtered]' }));
    expect(blocked).toMatchObject({ state: 'failed', code: 'moderation_blocked' });
    const held = await up.provider.video.start(videoRequest({ upstreamModel: 'sora-2', prompt: 'x [hold]' }), { taskId: 't' });
    await up.provider.video.cancel!(held);
    expect(up.fake.api.counts.cancel).toBe(1);
    await expect(up.provider.video.status(held, { taskId: 't' })).rejects.toMatchObject({
      code: 'upstream_task_not_found',
      retryable: false,
    });
  });

  it('a 429 on create is rate_limited with Retry-After (the worker may retry: nothing was accepted)', async () => {
    const before = up.fake.book.submissions.length;
    up.fake.api.failNext('create', 1, { status: 429, retryAfterSeconds: 2 });
    await expect(up.provider.video.start(videoRequest({ upstreamModel: 'sora-2' }), { taskId: 't' })).rejects.toMatchObject({
      reason: 'rate_limited',
      retryAfterSeconds: 2,
    });
    expect(up.fake.book.submissions.length).toBe(before);
  });
});
