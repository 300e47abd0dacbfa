import { ALPHA, BETA, createFakeVideoEngine, FakeVideoModel, moveTask, runWorkerOnce } from '@gateway/testkit';
import type { CreateVideoTaskInput } from './video-tasks.contract';
import { GatewayError } from '../errors';

const input = (over: Partial<CreateVideoTaskInput> = {}): CreateVideoTaskInput => ({
  principal: ALPHA,
  modelId: 'sim-video-2.0',
  draft: { prompt: 'a red fox in snow' },
  format: 'test',
  requestId: 'req_1',
  ...over,
});

const text = async (s: NodeJS.ReadableStream) => {
  let out = '';
  for await (const c of s as AsyncIterable<Buffer>) out += c.toString();
  return out;
};

async function failure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    return e as GatewayError;
  }
  throw new Error('expected a failure');
}

describe('VideoTasks.create', () => {
  it('stores a queued task with the limits-table defaults and writes its usage row before returning', async () => {
    const e = createFakeVideoEngine();
    const { task, replayed } = await e.service.create(input({ idempotencyKey: 'k1' }));
    expect(replayed).toBe(false);
    expect(task.id).toMatch(/^task[a-z0-9]{24}$/);
    expect(task).toMatchObject({
      status: 'queued',
      accountId: 'alpha',
      model: 'sim-video-2.0',
      format: 'test',
      priority: 0,
      serviceTier: 'default',
      executionExpiresAfter: 172_800,
      idempotencyKey: 'k1',
      request: { durationSeconds: 5, resolution: '720p', aspectRatio: 'adaptive', generateAudio: true, fps: 24 },
    });
    expect(e.usage.rows).toEqual([
      expect.objectContaining({
        taskId: task.id,
        status: 'queued',
        httpStatus: 200,
        accountId: 'alpha',
        provider: 'sim',
        requestId: 'req_1',
      }),
    ]);
    expect(e.usage.flushed).toBe(1);
  });

  it.each([
    ['a model outside the group', { modelId: 'sim-video-2.5' }, 'model_not_in_group', 503],
    ['a text model', { modelId: 'sim-chat' }, 'model_kind_mismatch', 400],
    ['a duration outside the family range', { draft: { prompt: 'x', durationSeconds: 16 } }, 'invalid_duration', 400],
    ['an unusable execution_expires_after', { executionExpiresAfter: 0 }, 'invalid_execution_expires_after', 400],
    ['a malformed Idempotency-Key', { idempotencyKey: 'é'.repeat(3) }, 'invalid_idempotency_key', 400],
  ])('refuses %s and stores nothing', async (_n, over, code, status) => {
    const e = createFakeVideoEngine();
    const err = await failure(e.service.create(input(over as Partial<CreateVideoTaskInput>)));
    expect(err).toMatchObject({ code, status });
    expect(e.tasks.all()).toEqual([]);
  });

  it('logs a refused creation as an error row once the model is known', async () => {
    const e = createFakeVideoEngine();
    await failure(e.service.create(input({ draft: { prompt: 'x', resolution: '4k' }, modelId: 'sim-video-2.0-fast' })));
    expect(e.usage.rows).toEqual([
      expect.objectContaining({ status: 'error', httpStatus: 400, errorCode: 'invalid_resolution', model: 'sim-video-2.0-fast' }),
    ]);
    expect(e.usage.rows[0]!.taskId).toBeUndefined();
  });

  it('refuses a model no configured upstream renders', async () => {
    const e = createFakeVideoEngine();
    e.catalogue.get('sim-video-2.0')!.deployments[0]!.provider = 'gone';
    expect(await failure(e.service.create(input()))).toMatchObject({ reason: 'upstream_unavailable', code: 'no_video_upstream' });
  });

  it('caps queued + running tasks per account with a 429 and Retry-After', async () => {
    const e = createFakeVideoEngine({ maxActive: 2 });
    const first = await e.service.create(input());
    await e.service.create(input());
    const err = await failure(e.service.create(input()));
    expect(err).toMatchObject({ reason: 'rate_limited', status: 429, code: 'too_many_active_tasks', retryAfterSeconds: 10 });
    expect(err.message).toContain('limit is 2');
    expect((await e.service.create(input({ principal: BETA }))).task.accountId).toBe('beta');
    await e.service.cancelOrDelete(ALPHA, first.task.id);
    expect((await e.service.create(input())).task.status).toBe('queued');
  });

  it('replays an Idempotency-Key for 24 h per account and creates nothing', async () => {
    const e = createFakeVideoEngine({ maxActive: 1 });
    const a = await e.service.create(input({ idempotencyKey: 'same' }));
    const b = await e.service.create(input({ idempotencyKey: 'same', requestId: 'req_2' }));
    expect(b).toEqual({ task: a.task, replayed: true }); // a replay is not refused by the cap either
    expect(e.tasks.all()).toHaveLength(1);
    expect(e.usage.rows.filter((r) => r.status === 'queued')).toHaveLength(1);
    const other = await e.service.create(input({ principal: BETA, idempotencyKey: 'same' }));
    expect(other.task.id).not.toBe(a.task.id);
    await e.service.cancelOrDelete(ALPHA, a.task.id);
    e.clock.advance(24 * 3600 * 1000 + 1);
    const later = await e.service.create(input({ idempotencyKey: 'same' }));
    expect(later.replayed).toBe(false);
    expect(later.task.id).not.toBe(a.task.id);
  });
});

describe('VideoTasks ownership and reads', () => {
  it("another account's task is exactly not_found", async () => {
    const e = createFakeVideoEngine();
    const { task } = await e.service.create(input());
    expect((await e.service.get(ALPHA, task.id)).id).toBe(task.id);
    const foreign = await failure(e.service.get(BETA, task.id));
    const unknown = await failure(e.service.get(BETA, 'task000000000000000000000000'));
    expect(foreign).toMatchObject({ reason: 'not_found', code: 'task_not_found' });
    expect(unknown.message.replace('task000000000000000000000000', task.id)).toBe(foreign.message);
    for (const op of [() => e.service.cancelOrDelete(BETA, task.id), () => e.service.content(BETA, task.id, 'video')]) {
      expect(await failure(op())).toMatchObject({ code: 'task_not_found' });
    }
  });

  it('lists in pages with a task-id cursor, only the caller’s tasks', async () => {
    const e = createFakeVideoEngine();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await e.service.create(input())).task.id);
      e.clock.advance(1000);
    }
    await e.service.create(input({ principal: BETA }));
    const p1 = await e.service.list(ALPHA, { limit: 2, order: 'desc' });
    expect(p1.items.map((t) => t.id)).toEqual([ids[2], ids[1]]);
    expect(p1).toMatchObject({ hasMore: true, total: 3 });
    const p2 = await e.service.list(ALPHA, { limit: 2, order: 'desc', after: ids[1] });
    expect(p2.items.map((t) => t.id)).toEqual([ids[0]]);
    expect(await failure(e.service.list(BETA, { limit: 2, order: 'desc', after: ids[1] }))).toMatchObject({ code: 'invalid_cursor' });
    expect(await failure(e.service.list(ALPHA, { limit: 0, order: 'desc' }))).toMatchObject({ code: 'invalid_limit' });
  });
});

describe('VideoTasks.cancelOrDelete and content', () => {
  it('cancels a queued task, and its upstream operation when it has one', async () => {
    const e = createFakeVideoEngine();
    const { task } = await e.service.create(input());
    await runWorkerOnce(e.worker()); // submitted: still queued upstream
    const res = await e.service.cancelOrDelete(ALPHA, task.id);
    expect(res).toMatchObject({ outcome: 'cancelled', task: { status: 'cancelled', error: { code: 'cancelled' } } });
    expect(e.upstream.cancelled).toEqual([res.task.upstream!.operation]);
  });

  it('refuses to cancel a running task, then deletes it with its content once finished', async () => {
    const e = createFakeVideoEngine();
    const { task } = await e.service.create(input());
    const w = e.worker();
    while ((await e.service.get(ALPHA, task.id)).status === 'queued') {
      e.clock.advance(2000);
      await runWorkerOnce(w);
    }
    expect(await failure(e.service.cancelOrDelete(ALPHA, task.id))).toMatchObject({ reason: 'conflict', code: 'task_running' });
    expect(await failure(e.service.content(ALPHA, task.id, 'video'))).toMatchObject({ reason: 'conflict', code: 'video_not_ready' });
    e.clock.advance(2000);
    await runWorkerOnce(w);
    const video = await e.service.content(ALPHA, task.id, 'video');
    expect(video).toMatchObject({ mediaType: 'video/mp4', size: 'fake-mp4-bytes'.length });
    expect(await text(video.open({ start: 5, end: 7 }))).toBe('mp4');
    expect((await e.service.content(ALPHA, task.id, 'thumbnail')).mediaType).toBe('image/jpeg');
    expect(e.content.objects.size).toBe(2);
    expect(await e.service.cancelOrDelete(ALPHA, task.id)).toMatchObject({ outcome: 'deleted', task: { id: task.id } });
    expect(e.content.objects.size).toBe(0);
    expect(await failure(e.service.get(ALPHA, task.id))).toMatchObject({ code: 'task_not_found' });
  });

  it('content of a task whose bytes are gone is not_found; of a failed task, not available', async () => {
    const e = createFakeVideoEngine();
    const { task } = await e.service.create(input());
    const w = e.worker();
    for (let i = 0; i < 5; i++) {
      e.clock.advance(2000);
      await runWorkerOnce(w);
    }
    e.content.objects.clear();
    expect(await failure(e.service.content(ALPHA, task.id, 'video'))).toMatchObject({ reason: 'not_found', code: 'content_not_found' });
    const failed = await e.service.create(input());
    await moveTask(e.tasks, failed.task.id, 'queued', 'failed', { error: { code: 'x', message: 'y' } });
    expect(await failure(e.service.content(ALPHA, failed.task.id, 'video'))).toMatchObject({ code: 'video_not_available' });
  });
});

describe('VideoTasks.remix', () => {
  /** A task of this account taken to succeeded by the worker. */
  async function succeeded(e: ReturnType<typeof createFakeVideoEngine>, over: Partial<CreateVideoTaskInput> = {}) {
    const { task } = await e.service.create(input(over));
    const w = e.worker();
    for (let i = 0; i < 10 && (await e.service.get(ALPHA, task.id)).status !== 'succeeded'; i++) {
      await runWorkerOnce(w);
      e.clock.advance(2000);
    }
    return e.service.get(ALPHA, task.id);
  }
  const remix = (sourceId: string, over: Record<string, unknown> = {}) => ({
    principal: ALPHA,
    sourceId,
    prompt: 'the same fox at dawn',
    format: 'test',
    requestId: 'req_r',
    ...over,
  });

  it("creates a queued task of the source's model, duration and size with the new prompt, naming the source and its operation", async () => {
    const e = createFakeVideoEngine({ upstream: new FakeVideoModel({ remix: true }) });
    const source = await succeeded(e, {
      draft: { prompt: 'a red fox in snow', durationSeconds: 8, aspectRatio: '9:16', generateAudio: false },
    });
    expect(source.status).toBe('succeeded');
    const { task } = await e.service.remix(remix(source.id));
    expect(task).toMatchObject({
      status: 'queued',
      model: source.model,
      accountId: 'alpha',
      request: {
        prompt: 'the same fox at dawn',
        durationSeconds: 8,
        aspectRatio: '9:16',
        generateAudio: false,
        resolution: source.request.resolution,
        remixOf: { taskId: source.id, operation: source.upstream!.operation },
      },
    });
    await runWorkerOnce(e.worker());
    expect(e.upstream.startRequests.at(-1)?.remixOf).toEqual({ taskId: source.id, operation: source.upstream!.operation });
    expect(e.usage.rows.at(-1)).toMatchObject({ taskId: task.id, status: 'queued', requestId: 'req_r' });
  });

  it("refuses a source that is not completed, another account's source, and an upstream that cannot remix; creates nothing", async () => {
    const e = createFakeVideoEngine({ upstream: new FakeVideoModel({ remix: true }) });
    const queued = (await e.service.create(input())).task;
    expect(await failure(e.service.remix(remix(queued.id)))).toMatchObject({ status: 409, code: 'remix_source_not_completed' });
    const done = await succeeded(e);
    expect(await failure(e.service.remix(remix(done.id, { principal: BETA })))).toMatchObject({ status: 404, code: 'task_not_found' });
    const count = e.tasks.all().length;

    const plain = createFakeVideoEngine();
    const source = await succeeded(plain);
    expect(await failure(plain.service.remix(remix(source.id)))).toMatchObject({ status: 400, code: 'unsupported_video_operation' });
    expect(plain.tasks.all()).toHaveLength(1);
    expect(e.tasks.all()).toHaveLength(count);
  });
});
