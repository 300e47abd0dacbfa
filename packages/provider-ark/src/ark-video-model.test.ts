import { GatewayError } from '@gateway/core';
import { fakeMp4, pollUntilSettled, readStream, taggedDataUrl, taggedFrame, useFakeVideoUpstream, videoRequest } from '@gateway/testkit';
import { startFakeArk } from './testing';
import { arkProvider } from './ark-provider';
import { convertToArkTask } from './convert-to-ark-task';

const up = useFakeVideoUpstream(
  (clock) => startFakeArk({ queuedMs: 60, runningMs: 80, now: clock.now }),
  (fake) => arkProvider.create({ baseUrl: fake.url, apiKey: fake.apiKey }),
);

describe('convertToArkTask', () => {
  it('puts the text first and each image under its role, as data URLs', () => {
    const body = convertToArkTask(
      videoRequest({
        prompt: 'p',
        firstFrame: taggedFrame(4, 3, 'a'),
        lastFrame: taggedFrame(4, 3, 'b'),
        aspectRatio: 'adaptive',
        resolution: '1080p',
        durationSeconds: 6,
      }),
    );
    expect(body).toMatchObject({
      model: 'up-model',
      ratio: 'adaptive',
      resolution: '1080p',
      duration: 6,
      generate_audio: true,
      watermark: false,
    });
    expect(body.content).toEqual([
      { type: 'text', text: 'p' },
      { type: 'image_url', image_url: { url: taggedDataUrl('a') }, role: 'first_frame' },
      { type: 'image_url', image_url: { url: taggedDataUrl('b') }, role: 'last_frame' },
    ]);
    const refs = convertToArkTask(videoRequest({ referenceImages: [taggedFrame(1, 1, 'r1'), taggedFrame(1, 1, 'r2')] })).content.filter(
      (c) => c.type === 'image_url',
    );
    expect(refs.map((c) => (c as { role?: string }).role)).toEqual(['reference_image', 'reference_image']);
  });

  it('check() refuses 4k and durations Ark cannot render, with invalid_request', () => {
    expect(() => up.provider.video.check!(videoRequest({ resolution: '4k' }))).toThrow(
      expect.objectContaining({ reason: 'invalid_request', code: 'resolution_not_supported' }),
    );
    expect(() => up.provider.video.check!(videoRequest({ durationSeconds: 20 }))).toThrow(
      expect.objectContaining({ code: 'duration_not_supported' }),
    );
    expect(() => up.provider.video.check!(videoRequest({ resolution: '1080p', durationSeconds: 10 }))).not.toThrow();
  });
});

describe('ArkVideoModel against the fake Ark', () => {
  it('runs a task queued → running → succeeded and streams the exact bytes from the storage host', async () => {
    const ref = await up.provider.video.start(
      videoRequest({ prompt: 'ark ok', resolution: '1080p', aspectRatio: '9:16', durationSeconds: 6 }),
      { taskId: 't1' },
    );
    expect(ref).toMatch(/^cgt-/);
    const sent = up.fake.api.requests.find((r) => r.method === 'POST')!;
    expect(sent.headers.authorization).toBe(`Bearer ${up.fake.apiKey}`);
    const done = await pollUntilSettled(up.provider.video, ref, { clock: up.clock });
    expect(done.pendingSeen).toContain(false); // seen queued (cancellable) before running
    expect(done.pendingSeen).toContain(true);
    if (done.state !== 'succeeded') throw new Error(done.state);
    expect(done.artifact).toMatchObject({ width: 1080, height: 1920, durationSeconds: 6, fps: 24 });
    expect(await readStream(await done.artifact.open())).toEqual(fakeMp4(ref));
    // The result URL is on another host: the key never went there.
    expect(up.fake.storage.requests.length).toBeGreaterThan(0);
    expect(up.fake.storage.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it('ends failed, cancelled and expired upstream tasks as failures with the upstream code', async () => {
    const failed = await up.settle(videoRequest({ prompt: 'x [fail]' }));
    expect(failed).toMatchObject({ state: 'failed', code: 'InternalServiceError', message: expect.stringContaining('fake Ark') });
    const filtered = await up.settle(videoRequest({ prompt: 'x [filtered]' }));
    expect(filtered).toMatchObject({ state: 'failed', code: 'OutputVideoSensitiveContentDetected' });
    const expired = await up.settle(videoRequest({ prompt: 'x [expire]' }));
    expect(expired).toMatchObject({ state: 'failed', code: 'expired' });
    const held = await up.provider.video.start(videoRequest({ prompt: 'x [hold]' }), { taskId: 't' });
    await up.provider.video.cancel!(held);
    expect(await pollUntilSettled(up.provider.video, held, { clock: up.clock })).toMatchObject({ state: 'failed', code: 'cancelled' });
  });

  it('batches concurrent status reads into list calls with repeated filter.task_ids', async () => {
    const refs = await Promise.all(
      Array.from({ length: 30 }, (_, i) => up.provider.video.start(videoRequest({ prompt: `batch ${i} [hold]` }), { taskId: `b${i}` })),
    );
    const before = { list: up.fake.api.counts.list, poll: up.fake.api.counts.poll };
    const states = await Promise.all(refs.map((r) => up.provider.video.status(r, { taskId: 'x' })));
    expect(states.every((s) => s.state === 'pending' && s.running === false)).toBe(true);
    expect(up.fake.api.counts.list - before.list).toBe(1);
    expect(up.fake.api.counts.poll - before.poll).toBe(0);
    const listCall = up.fake.api.requests.filter((r) => r.path.endsWith('/tasks') && r.method === 'GET').at(-1)!;
    expect(listCall.query.getAll('filter.task_ids').sort()).toEqual([...refs].sort());
  });

  it('a 429 on the list call reaches every waiter as rate_limited with its Retry-After', async () => {
    const refs = await Promise.all([0, 1].map((i) => up.provider.video.start(videoRequest({ prompt: `rl ${i} [hold]` }), { taskId: 'r' })));
    up.fake.api.failNext('list', 1, { status: 429, retryAfterSeconds: 7 });
    const errs = await Promise.all(refs.map((r) => up.provider.video.status(r, { taskId: 'x' }).catch((e: unknown) => e)));
    for (const e of errs) expect(e).toMatchObject({ reason: 'rate_limited', retryAfterSeconds: 7 });
  });

  it('a task the upstream no longer knows is a non-retryable upstream_task_not_found', async () => {
    const err = await up.provider.video.status('cgt-doesnotexist', { taskId: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: 'upstream_task_not_found', retryable: false });
  });

  it('a refused create keeps the upstream code, and an expired result URL fails the copy', async () => {
    up.fake.api.failNext('create', 1, { status: 400, body: { error: { code: 'InvalidParameter', message: 'ratio is bad' } } });
    const err = await up.provider.video.start(videoRequest(), { taskId: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'invalid_request', upstreamCode: 'InvalidParameter', message: 'ratio is bad' });

    const shortLived = await startFakeArk({ queuedMs: 0, runningMs: 0, urlTtlMs: 30, now: up.clock.now });
    const p = arkProvider.create({ baseUrl: shortLived.url, apiKey: shortLived.apiKey, options: { batchPolling: false } });
    try {
      const st = await p.video.status(await p.video.start(videoRequest(), { taskId: 'x' }), { taskId: 'x' });
      if (st.state !== 'succeeded') throw new Error(st.state);
      up.clock.advance(60);
      await expect(st.artifact.open()).rejects.toMatchObject({ upstreamStatus: 403, code: 'upstream_result_gone', retryable: false });
    } finally {
      p.close();
      await shortLived.close();
    }
  });
});
