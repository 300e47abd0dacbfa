import { ALPHA, createFakeVideoEngine, fakeArtifact, FakeVideoModel, runWorkerOnce } from '@gateway/testkit';
import { GatewayError, invalid } from '../errors';
import type { VideoRequest, VideoRequestDraft } from '../video-limits';

const create = (e: ReturnType<typeof createFakeVideoEngine>, draft: VideoRequestDraft) =>
  e.service.create({ principal: ALPHA, modelId: 'sim-video-2.0', format: 'test', requestId: 'r', draft });

/** What the real adapters add to the engine: capability refusals at creation, Retry-After, upstream codes. */
describe('video engine and upstream limits', () => {
  it('a request the upstream cannot render is refused at creation with 400, stores no task and sends nothing', async () => {
    const upstream = Object.assign(new FakeVideoModel(), {
      check(r: VideoRequest & { upstreamModel: string }) {
        if (r.lastFrame) throw invalid('last_frame_not_supported', `${r.upstreamModel} takes no last frame.`, 'last_frame');
      },
    });
    const e = createFakeVideoEngine({ upstream });
    const frame = { mediaType: 'image/png' as const, data: new Uint8Array([1]), width: 16, height: 9 };
    const err = await e.service
      .create({
        principal: ALPHA,
        modelId: 'sim-video-2.0',
        format: 'test',
        requestId: 'r',
        draft: { prompt: 'x', firstFrame: frame, lastFrame: frame },
      })
      .catch((x: unknown) => x);
    expect(err).toMatchObject({ status: 400, code: 'last_frame_not_supported', message: 'up-sim-video-2.0 takes no last frame.' });
    expect((await e.service.list(ALPHA, { limit: 10, order: 'asc' })).total).toBe(0);
    expect(e.usage.rows.at(-1)).toMatchObject({ status: 'error', errorCode: 'last_frame_not_supported' });
    await create(e, { prompt: 'x', firstFrame: frame });
    expect((await e.service.list(ALPHA, { limit: 10, order: 'asc' })).total).toBe(1);
  });

  it('a 429 with Retry-After pauses that provider: other tasks are put back without an upstream call, then all finish', async () => {
    let limited = 1;
    const upstream = new FakeVideoModel({
      plan: () => [{ state: 'succeeded', artifact: fakeArtifact() }],
    });
    const status = upstream.status.bind(upstream);
    upstream.status = async (ref, ctx) => {
      if (limited-- > 0) {
        upstream.statusCalls.push({ ref, taskId: ctx.taskId });
        throw new GatewayError('rate_limited', 'slow down', { retryAfterSeconds: 30, upstreamStatus: 429 });
      }
      return status(ref, ctx);
    };
    const e = createFakeVideoEngine({ upstream });
    const w = e.worker('w', { concurrency: 1, pollJitter: 0 });
    const ids = [];
    for (const p of ['a', 'b', 'c']) ids.push((await create(e, { prompt: p })).task.id);
    for (let i = 0; i < 3; i++) await runWorkerOnce(w); // three submissions
    e.clock.advance(600);
    await runWorkerOnce(w); // first poll: 429, Retry-After 30 s
    expect(upstream.statusCalls).toHaveLength(1);
    await runWorkerOnce(w);
    await runWorkerOnce(w); // the other two are due but the provider is paused: no call
    expect(upstream.statusCalls).toHaveLength(1);
    e.clock.advance(10_000);
    await runWorkerOnce(w);
    expect(upstream.statusCalls).toHaveLength(1); // still inside the pause (and their next look is after it)
    e.clock.advance(30_000); // past the 30 s pause and its spread (up to a quarter of it)
    for (let i = 0; i < 3; i++) await runWorkerOnce(w);
    for (const id of ids) expect((await e.tasks.findById(id))!.status).toBe('succeeded');
    expect(upstream.statusCalls).toHaveLength(4);
  });

  it('a refused submission keeps the upstream code in the task error message', async () => {
    const upstream = new FakeVideoModel({
      onStart: () => {
        throw new GatewayError('invalid_request', 'ratio is not valid', {
          code: 'upstream_invalid_request',
          upstreamStatus: 400,
          upstreamCode: 'InvalidParameter',
        });
      },
    });
    const e = createFakeVideoEngine({ upstream });
    const { task } = await create(e, { prompt: 'x' });
    await runWorkerOnce(e.worker());
    expect((await e.tasks.findById(task.id))!).toMatchObject({
      status: 'failed',
      error: { code: 'upstream_invalid_request', message: 'ratio is not valid (upstream code: InvalidParameter)' },
    });
  });

  it('poll delays are jittered downwards only, so a task is never looked at later than its backoff', async () => {
    const e = createFakeVideoEngine();
    const w = e.worker('w', { pollJitter: 0.5, pollMinMs: 1000 });
    const { task } = await create(e, { prompt: 'x' });
    await runWorkerOnce(w);
    e.clock.advance(499);
    expect(await runWorkerOnce(w)).toBe(0); // at least half the delay
    e.clock.advance(501);
    expect(await runWorkerOnce(w)).toBe(1); // at most the whole delay
    expect((await e.tasks.findById(task.id))!.status).not.toBe('failed');
  });

  it('a copy the upstream answers "gone" fails the task; a transient copy failure is retried', async () => {
    let opens = 0;
    const gone = new GatewayError('upstream_error', 'The result link expired.', { code: 'upstream_result_gone', upstreamStatus: 403 });
    const flaky = new GatewayError('upstream_unavailable', 'reset', { upstreamStatus: 503 });
    const artifact = (err: GatewayError) => ({
      ...fakeArtifact(),
      open: async () => {
        opens++;
        throw err;
      },
    });
    const upstream = new FakeVideoModel({ plan: (r) => [{ state: 'succeeded', artifact: artifact(r.prompt === 'gone' ? gone : flaky) }] });
    const e = createFakeVideoEngine({ upstream });
    const w = e.worker();
    const a = (await create(e, { prompt: 'gone' })).task.id;
    const b = (await create(e, { prompt: 'flaky' })).task.id;
    for (let i = 0; i < 4; i++) {
      await runWorkerOnce(w);
      e.clock.advance(3000);
    }
    expect(await e.tasks.findById(a)).toMatchObject({ status: 'failed', error: { code: 'upstream_result_gone' } });
    expect((await e.tasks.findById(b))!.status).toBe('running');
    expect(opens).toBeGreaterThan(2);
  });
});
