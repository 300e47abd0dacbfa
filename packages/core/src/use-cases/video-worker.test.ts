import { ALPHA, createFakeVideoEngine, fakeArtifact, FakeVideoModel, type FakeStep, runWorkerOnce } from '@gateway/testkit';
import { GatewayError } from '../errors';
import type { TaskQueue } from '../ports/task-queue.port';
import { VideoWorker } from './video-worker';

type Engine = ReturnType<typeof createFakeVideoEngine>;
const create = (e: Engine, over: { prompt?: string; executionExpiresAfter?: number } = {}) =>
  e.service.create({
    principal: ALPHA,
    modelId: 'sim-video-2.0',
    draft: { prompt: over.prompt ?? 'a fox', aspectRatio: '16:9' },
    format: 'test',
    requestId: 'r',
    executionExpiresAfter: over.executionExpiresAfter,
  });

/** Advances the clock past any backoff and runs the worker, until `done` or `max` rounds. */
async function drive(e: Engine, w: ReturnType<Engine['worker']>, id: string, max = 10): Promise<string> {
  for (let i = 0; i < max; i++) {
    const t = await e.tasks.findById(id);
    if (!t || ['succeeded', 'failed', 'cancelled', 'expired'].includes(t.status)) return t?.status ?? 'gone';
    await runWorkerOnce(w);
    e.clock.advance(2000);
  }
  return (await e.tasks.findById(id))!.status;
}

/** A hold on a promise, to make an upstream call hang until the test lets it go. */
function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { wait: () => p, open };
}

describe('VideoWorker', () => {
  it('reads the input images for the submission only: claims and polls carry the task without their bytes', async () => {
    const e = createFakeVideoEngine();
    const { task } = await create(e);
    const loads = jest.spyOn(e.tasks, 'loadRequest');
    const w = e.worker();
    await runWorkerOnce(w);
    expect(loads.mock.calls).toEqual([[task.id]]);
    expect(await drive(e, w, task.id)).toBe('succeeded');
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('submits once, follows queued → running with progress, and delivers the artifact', async () => {
    const e = createFakeVideoEngine();
    const { task } = await create(e);
    const w = e.worker();
    expect(await runWorkerOnce(w)).toBe(1);
    const submitted = (await e.tasks.findById(task.id))!;
    expect(submitted).toMatchObject({ status: 'queued', upstream: { provider: 'sim', operation: expect.any(String) } });
    expect(await runWorkerOnce(w)).toBe(0); // not due before the first poll delay
    e.clock.advance(500);
    await runWorkerOnce(w); // upstream still queued
    expect((await e.tasks.findById(task.id))!.status).toBe('queued');
    e.clock.advance(2000);
    await runWorkerOnce(w);
    expect(await e.tasks.findById(task.id)).toMatchObject({ status: 'running', progress: 50 });
    e.clock.advance(2000);
    await runWorkerOnce(w);
    const done = (await e.tasks.findById(task.id))!;
    expect(done).toMatchObject({ status: 'succeeded', progress: 100, error: null });
    expect(done.delivery).toMatchObject({
      resolution: '720p',
      ratio: '16:9',
      durationSeconds: 5,
      fps: 24,
      width: 1280,
      height: 720,
      bytes: 14,
    });
    expect(done.delivery!.contentKey).toMatch(new RegExp(`^videos/${task.id}-[a-z0-9]+\\.mp4$`));
    expect(done.delivery!.thumbnailKey).toMatch(/-thumb\.jpg$/);
    expect(e.upstream.submissions).toBe(1);
    expect(new Set(e.upstream.statusCalls.map((c) => c.ref))).toEqual(new Set([submitted.upstream!.operation]));
    expect(e.upstream.startCalls).toEqual([task.id]);
  });

  it('an adaptive request records the concrete ratio of what was delivered', async () => {
    const upstream = new FakeVideoModel({
      plan: () => [{ state: 'succeeded', artifact: fakeArtifact({ width: 720, height: 1280, thumbnail: false }) }],
    });
    const e = createFakeVideoEngine({ upstream });
    const { task } = await e.service.create({
      principal: ALPHA,
      modelId: 'sim-video-2.0',
      draft: { prompt: 'p' },
      format: 'test',
      requestId: 'r',
    });
    expect(await drive(e, e.worker(), task.id)).toBe('succeeded');
    expect((await e.tasks.findById(task.id))!.delivery).toMatchObject({ ratio: '9:16', resolution: '720p', thumbnailKey: undefined });
  });

  it('stores an upstream failure as {code, message}', async () => {
    const upstream = new FakeVideoModel({
      plan: () => [
        { state: 'pending', progress: 10 },
        { state: 'failed', code: 'content_policy', message: 'The prompt was refused.' },
      ],
    });
    const e = createFakeVideoEngine({ upstream });
    const { task } = await create(e);
    expect(await drive(e, e.worker(), task.id)).toBe('failed');
    expect((await e.tasks.findById(task.id))!.error).toEqual({ code: 'content_policy', message: 'The prompt was refused.' });
  });

  it('a crashed worker’s task is resumed from its stored operation, never submitted again', async () => {
    const e = createFakeVideoEngine();
    const { task } = await create(e);
    // Worker A submits, then "dies" before giving its lease back: every release it attempts is lost.
    const dying: typeof e.tasks & TaskQueue = Object.create(e.tasks, {
      release: {
        value: async () => {
          throw new Error('process died');
        },
      },
    });
    const a = new VideoWorker(
      { tasks: dying, content: e.content, catalogue: e.catalogue, providers: e.providers, now: e.clock.now },
      { owner: 'worker-a', leaseMs: 30_000, pollMinMs: 500 },
    );
    await runWorkerOnce(a);
    const ref = (await e.tasks.findById(task.id))!.upstream!.operation;
    expect(e.tasks.leaseOf(task.id)).toMatchObject({ leaseOwner: 'worker-a', submitStartedAt: null });

    const b = e.worker('worker-b');
    e.clock.advance(5000);
    expect(await runWorkerOnce(b)).toBe(0); // A's lease still holds
    e.clock.advance(30_000);
    expect(await drive(e, b, task.id)).toBe('succeeded');
    expect(e.upstream.submissions).toBe(1);
    expect(e.upstream.startCalls).toHaveLength(1);
    expect(e.upstream.statusCalls.every((c) => c.ref === ref)).toBe(true);
  });

  it('a submission whose outcome was lost fails the task instead of resubmitting (non-idempotent upstream)', async () => {
    const hold = gate();
    const upstream = new FakeVideoModel({ onStart: (_id, n) => (n === 1 ? hold.wait() : undefined) });
    const e = createFakeVideoEngine({ upstream });
    const { task } = await create(e);
    const a = e.worker('worker-a');
    await a.pump(); // A is inside start() and will "die" there
    e.clock.advance(31_000);
    await runWorkerOnce(e.worker('worker-b'));
    expect(await e.tasks.findById(task.id)).toMatchObject({ status: 'failed', error: { code: 'submission_unknown' } });
    expect(upstream.startCalls).toHaveLength(1);
    // If A's start comes back after all, its operation is cancelled rather than left orphaned.
    hold.open();
    await a.drain();
    expect(upstream.submissions).toBe(1);
    expect(upstream.cancelled).toEqual([...upstream.operations.keys()]);
  });

  it('an idempotent upstream lets the next worker repeat the lost start without a second generation', async () => {
    const hold = gate();
    const upstream = new FakeVideoModel({ idempotentStart: true, onStart: (_id, n) => (n === 1 ? hold.wait() : undefined) });
    const e = createFakeVideoEngine({ upstream });
    const { task } = await create(e);
    const a = e.worker('worker-a');
    await a.pump();
    e.clock.advance(31_000);
    const b = e.worker('worker-b');
    await runWorkerOnce(b);
    hold.open();
    await a.drain();
    expect(await drive(e, b, task.id)).toBe('succeeded');
    expect(upstream.submissions).toBe(1);
    expect(upstream.cancelled).toEqual([]);
  });

  it('retries a submission the upstream refused as unavailable; fails one it rejected', async () => {
    let calls = 0;
    const upstream = new FakeVideoModel({
      onStart: (id) => {
        calls++;
        if (calls === 1) throw new GatewayError('upstream_unavailable', 'busy');
        if (id === rejectId) throw new GatewayError('content_policy', 'Refused by the upstream safety system.', { code: 'prompt_blocked' });
      },
    });
    let rejectId = '';
    const e = createFakeVideoEngine({ upstream });
    const { task } = await create(e);
    const w = e.worker();
    await runWorkerOnce(w);
    expect(await e.tasks.findById(task.id)).toMatchObject({ status: 'queued', upstream: null });
    expect(e.tasks.leaseOf(task.id)!.submitStartedAt).toBeNull();
    expect(await drive(e, w, task.id)).toBe('succeeded');
    expect(upstream.submissions).toBe(1);
    rejectId = (await create(e)).task.id;
    expect(await drive(e, w, rejectId)).toBe('failed');
    expect((await e.tasks.findById(rejectId))!.error).toEqual({
      code: 'prompt_blocked',
      message: 'Refused by the upstream safety system.',
    });
  });

  it('retries transient poll errors and content-store failures; fails on a permanent poll error', async () => {
    const steps: FakeStep[] = [
      { state: 'throw', error: new GatewayError('upstream_timeout', 'slow') },
      { state: 'succeeded', artifact: fakeArtifact() },
    ];
    const upstream = new FakeVideoModel({
      plan: (r) =>
        r.prompt === 'lost' ? [{ state: 'throw', error: new GatewayError('not_found', 'gone', { code: 'operation_not_found' }) }] : steps,
    });
    const e = createFakeVideoEngine({ upstream });
    e.content.failPuts = 1;
    const { task } = await create(e);
    const w = e.worker();
    await runWorkerOnce(w); // submit
    e.clock.advance(2000);
    await runWorkerOnce(w); // timeout
    e.clock.advance(2000);
    await runWorkerOnce(w); // content store fails
    expect(await e.tasks.findById(task.id)).toMatchObject({ status: 'running' });
    expect(e.content.objects.size).toBe(0);
    expect(await drive(e, w, task.id)).toBe('succeeded');
    const lost = (await create(e, { prompt: 'lost' })).task;
    expect(await drive(e, w, lost.id)).toBe('failed');
    expect((await e.tasks.findById(lost.id))!.error!.code).toBe('operation_not_found');
  });

  it('expires tasks not finished within execution_expires_after and cancels their upstream work', async () => {
    const upstream = new FakeVideoModel({ plan: () => [{ state: 'pending', progress: 5 }] });
    const e = createFakeVideoEngine({ upstream });
    const slow = (await create(e, { executionExpiresAfter: 60 })).task;
    const unclaimed = (await create(e, { executionExpiresAfter: 60 })).task;
    const fine = (await create(e, { executionExpiresAfter: 600 })).task;
    const w = e.worker('worker-a', { concurrency: 1 });
    await runWorkerOnce(w); // submits only `slow`
    e.clock.advance(60_000);
    expect(await w.expireOverdue()).toBe(2);
    expect(await e.tasks.findById(slow.id)).toMatchObject({ status: 'expired', error: { code: 'expired' } });
    expect((await e.tasks.findById(unclaimed.id))!.status).toBe('expired');
    expect((await e.tasks.findById(fine.id))!.status).toBe('queued');
    await new Promise((r) => setImmediate(r));
    expect(upstream.cancelled).toEqual([(await e.tasks.findById(slow.id))!.upstream!.operation]);
  });

  it('deletes tasks and their content 7 days after creation', async () => {
    const e = createFakeVideoEngine();
    const old = (await create(e)).task;
    const w = e.worker();
    expect(await drive(e, w, old.id)).toBe('succeeded');
    expect(e.content.objects.size).toBe(2);
    e.clock.advance(6 * 86_400_000);
    const recent = (await create(e)).task;
    expect(await w.purgeRetention()).toBe(0);
    e.clock.advance(86_400_000);
    expect(await w.purgeRetention()).toBe(1);
    expect(await e.tasks.findById(old.id)).toBeNull();
    expect(e.content.objects.size).toBe(0);
    expect(await e.tasks.findById(recent.id)).not.toBeNull();
  });

  it("the retention safety net leaves the Files API's bytes alone: files expire on their own terms", async () => {
    const e = createFakeVideoEngine();
    await e.content.put('videos/orphan.mp4', Buffer.from('v'));
    await e.content.put('files/file-kept', Buffer.from('f'));
    e.clock.advance(8 * 86_400_000);
    await e.worker().purgeRetention();
    expect([...e.content.objects.keys()]).toEqual(['files/file-kept']);
  });

  it('drives at most `concurrency` tasks at once', async () => {
    const hold = gate();
    const upstream = new FakeVideoModel({ onStart: () => hold.wait() });
    const e = createFakeVideoEngine({ upstream });
    for (let i = 0; i < 5; i++) await create(e);
    const w = e.worker('worker-a', { concurrency: 2 });
    expect(await w.pump()).toBe(2);
    expect(await w.pump()).toBe(0);
    expect(w.busy).toBe(2);
    hold.open();
    await w.drain();
    expect(await w.pump()).toBe(2);
    await w.drain();
    expect(upstream.submissions).toBe(4);
  });
});

describe('VideoWorker housekeeping in a store outage', () => {
  it('logs the outage once at warn, not once a second, and its end once', async () => {
    const e = createFakeVideoEngine();
    const store = { down: false };
    // the repository of a database that went away: every query fails while it is down
    const failing: typeof e.tasks & TaskQueue = Object.create(e.tasks, {
      expireOverdue: {
        value: async (...args: Parameters<typeof e.tasks.expireOverdue>) => {
          if (store.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
          return e.tasks.expireOverdue(...args);
        },
      },
    });
    const lines: Array<[string, string, Record<string, unknown>]> = [];
    const w = new VideoWorker(
      {
        tasks: failing,
        content: e.content,
        catalogue: e.catalogue,
        providers: e.providers,
        now: e.clock.now,
        log: (level, message, fields) => lines.push([level, message, fields]),
      },
      { owner: 'w' },
    );
    await runWorkerOnce(w);
    store.down = true;
    for (let i = 0; i < 30; i++) {
      e.clock.advance(1000); // housekeeping is due every second
      await runWorkerOnce(w);
    }
    store.down = false;
    e.clock.advance(1000);
    await runWorkerOnce(w);
    expect(lines.map(([level, message]) => [level, message])).toEqual([
      ['warn', 'video housekeeping: failing, retrying'],
      ['warn', 'video housekeeping: succeeding again'],
    ]);
    expect(lines[0]![2]).toMatchObject({ error: 'connect ECONNREFUSED 127.0.0.1:5432' });
    expect(lines[1]![2]).toMatchObject({ failures: 30, outageMs: 30_000 });
  });
});
