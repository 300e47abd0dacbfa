import { eventually, runWorkerOnce } from '@gateway/testkit';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { authenticate, isTerminal, VideoWorker, type Principal, type VideoModelPort, type VideoTask } from '@gateway/core';
import { createSimulatorProvider, probeMedia } from '@gateway/provider-simulator';
import { KnexTaskRepository } from '@gateway/store-postgres';
import { buildProviders } from '../src/providers';
import { buildVideoEngine, type VideoEngineContext } from '../src/wiring/video-engine';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

const ctxOf = (
  gw: TestGateway,
  providers: VideoEngineContext['providers'] = buildProviders(gw.config, { dataDir: gw.dataDir }),
): VideoEngineContext => ({
  env: gw.env,
  config: gw.config,
  knex: gw.db.knex,
  stores: gw.stores,
  usage: gw.usage,
  logger: gw.logger,
  providers,
});

async function until(read: () => Promise<VideoTask>, done: (t: VideoTask) => boolean, ms = 20_000): Promise<VideoTask> {
  let task!: VideoTask;
  await eventually(
    async () => {
      task = await read();
      if (!done(task)) throw new Error(`task ${task.id} is still ${task.status}`);
    },
    ms,
    50,
  );
  return task;
}

async function saveContent(engine: ReturnType<typeof buildVideoEngine>, p: Principal, id: string, name: string): Promise<string> {
  const c = await engine.service.content(p, id, 'video');
  const file = path.join(gw.dataDir, name);
  await pipeline(c.open(), createWriteStream(file));
  expect((await stat(file)).size).toBe(c.size);
  return file;
}

// One gateway for the file (start-up dominates the run time): the store-level tests run first with no
// background worker; then the gateway's own worker is started for the end-to-end ones.
let gw: TestGateway;
let alpha: Principal;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false });
  alpha = await authenticate(gw.stores.keys, ALPHA_KEY);
});
afterAll(async () => gw.stop());

describe('video worker on the real store', () => {
  it('a worker that dies after submitting is resumed from its operation ref by another, with one submission', async () => {
    const sim = createSimulatorProvider({ queuedMs: 0, videoLatencyMs: 300, dataDir: gw.dataDir }).video;
    let starts = 0;
    const port: VideoModelPort = { start: (r, c) => (starts++, sim.start(r, c)), status: (ref, c) => sim.status(ref, c) };
    const engine = buildVideoEngine(ctxOf(gw, { video: () => port }));
    const repo = new KnexTaskRepository(gw.db.knex);
    const deps = { content: engine.content, catalogue: gw.config.catalogue, providers: { video: () => port } };
    const dying: KnexTaskRepository = Object.create(repo, {
      release: {
        value: async () => {
          throw new Error('process died');
        },
      },
    });
    // B's clock is moved past A's lease once the test has seen the lease hold: no real-time window to miss.
    const LEASE_MS = 60_000;
    let skewMs = 0;
    const a = new VideoWorker({ ...deps, tasks: dying }, { owner: 'worker-a', leaseMs: LEASE_MS });
    const b = new VideoWorker(
      { ...deps, tasks: repo, now: () => Date.now() + skewMs },
      { owner: 'worker-b', pollMinMs: 100, pollMaxMs: 200 },
    );

    const { task } = await engine.service.create({
      principal: alpha,
      modelId: 'sim-video-2.0',
      format: 'test',
      requestId: 'r',
      draft: { prompt: 'resume me', durationSeconds: 4, resolution: '480p' },
    });
    expect(await runWorkerOnce(a)).toBe(1);
    const submitted = await engine.service.get(alpha, task.id);
    expect(submitted.upstream?.operation).toMatch(/^sim1\./);
    expect(await runWorkerOnce(b)).toBe(0); // A's lease still holds
    skewMs = 2 * LEASE_MS; // ... until it runs out
    const done = await until(
      async () => (await runWorkerOnce(b), engine.service.get(alpha, task.id)),
      (t) => isTerminal(t.status),
    );
    expect(done.status).toBe('succeeded');
    expect(done.upstream).toEqual(submitted.upstream);
    expect(starts).toBe(1);
    const info = await probeMedia(await saveContent(engine, alpha, task.id, 'resumed.mp4'));
    expect(info.video).toMatchObject({ codec: 'h264', width: 854, height: 480 });
  });

  it('stop() aborts the step in flight and hands its task back at once', async () => {
    // An upstream whose status call only ends when aborted: the worker is mid-step when stop() comes.
    let polled = false;
    const hanging: VideoModelPort = {
      start: async () => 'op-hang',
      status: (_ref, c) => (
        (polled = true),
        new Promise((_ok, fail) => c.signal?.addEventListener('abort', () => fail(new Error('aborted'))))
      ),
    };
    const engine = buildVideoEngine(ctxOf(gw, { video: () => hanging }), { intervalMs: 20, pollMinMs: 50, pollMaxMs: 50 });
    const { task } = await engine.service.create({
      principal: alpha,
      modelId: 'sim-video-2.0',
      format: 'test',
      requestId: 'r',
      draft: { prompt: 'long one' },
    });
    engine.start();
    const leased = async () => (await gw.db.knex('video_tasks').where({ id: task.id }).first()) as Record<string, unknown>;
    await eventually(() => polled, 5000);
    expect(await leased()).toMatchObject({ lease_owner: engine.worker.owner });
    await engine.stop();
    expect(engine.worker.busy).toBe(0);
    await eventually(async () => expect(await leased()).toMatchObject({ status: 'queued', lease_owner: null }));
    await gw.db.knex('video_tasks').where({ id: task.id }).update({ status: 'cancelled' }); // keep it from the gateway's worker later
  });
});

describe('video engine in a running gateway', () => {
  let engine: ReturnType<typeof buildVideoEngine>;
  beforeAll(async () => {
    await gw.startBackground();
    engine = buildVideoEngine(ctxOf(gw)); // a second handle on the same store; the gateway's own worker does the work
  });

  it('drives a task to success; the delivered MP4 is real H.264 of the requested duration and size', async () => {
    const { task } = await engine.service.create({
      principal: alpha,
      modelId: 'sim-video-2.0',
      format: 'test',
      requestId: 'req_engine_1',
      draft: { prompt: 'a paper boat on a pond', durationSeconds: 4, aspectRatio: '16:9' },
    });
    expect(task.status).toBe('queued');
    const done = await until(
      () => engine.service.get(alpha, task.id),
      (t) => isTerminal(t.status),
    );
    expect(done.status).toBe('succeeded');
    expect(done.delivery).toMatchObject({ resolution: '720p', ratio: '16:9', durationSeconds: 4, fps: 24, width: 1280, height: 720 });
    const info = await probeMedia(await saveContent(engine, alpha, task.id, 'out.mp4'));
    expect(info.video).toEqual({ codec: 'h264', width: 1280, height: 720, fps: 24 });
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.durationSeconds - 4)).toBeLessThan(0.15);
    expect((await stat(path.join(gw.dataDir, 'content', done.delivery!.contentKey))).isFile()).toBe(true);
    expect((await engine.service.content(alpha, task.id, 'thumbnail')).mediaType).toBe('image/jpeg');
    // the creation row, and the settlement on what was delivered (docs/quotas.md)
    let rows: Array<Record<string, unknown>> = [];
    await eventually(async () => {
      rows = await gw.db.knex('usage_log').where({ task_id: task.id }).orderBy('id');
      expect(rows).toHaveLength(2); // settled just after the task turned succeeded
    });
    expect(rows[0]).toMatchObject({ status: 'queued', request_id: 'req_engine_1', account_id: 'alpha' });
    expect(rows[1]).toMatchObject({ status: 'succeeded', request_id: `settle_${task.id}`, video_delivered_resolution: '720p' });
  });

  it('a [sim:fail] prompt ends failed with a readable message', async () => {
    const { task } = await engine.service.create({
      principal: alpha,
      modelId: 'sim-video-2.0-fast',
      format: 'test',
      requestId: 'r',
      draft: { prompt: 'boom [sim:fail]' },
    });
    const done = await until(
      () => engine.service.get(alpha, task.id),
      (t) => isTerminal(t.status),
    );
    expect(done).toMatchObject({ status: 'failed', error: { code: 'simulated_failure', message: expect.stringContaining('[sim:fail]') } });
  });
});
