import {
  ALPHA,
  createFakeVideoEngine,
  fakeArtifact,
  FakeVideoModel,
  fakeVideoCatalogue,
  type InMemoryTaskRepository,
  runWorkerOnce,
} from '@gateway/testkit';
import { videoCost } from '../pricing';
import { ModelCatalogue } from '../catalogue';
import type { QuotaRepository, TaskSettlementWrite } from '../ports/quota-repository.port';
import type { ProbedVideo } from '../ports/video-probe.port';
import type { VideoTask } from '../video-task';
import { Billing } from './billing';

/** The fake catalogue with sim-video-2.0 priced: 480p 1, 720p 2, 1080p 3, 4k 4 credits a second. */
function pricedCatalogue(): ModelCatalogue {
  const base = fakeVideoCatalogue();
  const models = base
    .all()
    .map((m) => (m.id === 'sim-video-2.0' ? { ...m, pricing: { perVideoSecond: { '480p': 1, '720p': 2, '1080p': 3, '4k': 4 } } } : m));
  return new ModelCatalogue(models, base.groupsList());
}

/**
 * Settlement side of a quota store over the in-memory task store: what admission reserved is the request's price
 * (the in-memory admission takes exactly that), and each settlement is recorded once (compare-and-set).
 */
function settlingQuotas(tasks: () => InMemoryTaskRepository, catalogue: ModelCatalogue, opts: { failFirst?: boolean } = {}) {
  const settled = new Map<string, TaskSettlementWrite>();
  let fail = opts.failFirst ?? false;
  const reservedOf = (t: VideoTask) => videoCost(catalogue.get(t.model)!, t.request.resolution, t.request.durationSeconds);
  const quotas: QuotaRepository = {
    get: async (accountId) => ({ accountId, limit: null, used: 0, period: null }),
    setLimit: async (accountId, limit) => ({ accountId, limit, used: 0, period: null }),
    getKey: async (keyId) => ({ keyId, limit: null, used: 0, period: null }),
    setKeyLimit: async (keyId, limit, period) => ({ keyId, limit, used: 0, period }),
    charge: async () => undefined,
    reserve: async () => true,
    chargeTask: async () => true,
    unbilledTasks: async () => [],
    tasksWithoutUsageRow: async () => [],
    refundTask: async () => null,
    refundUnsuccessfulTasks: async () => [],
    unsettledTasks: async (limit, taskId) =>
      tasks()
        .all()
        .filter((t) => t.status === 'succeeded' && !settled.has(t.id) && (taskId === undefined || t.id === taskId))
        .slice(0, limit)
        .map((task) => ({ task, reserved: reservedOf(task) })),
    settleTask: async (taskId, s) => {
      if (fail) {
        fail = false;
        throw new Error('store unavailable');
      }
      if (settled.has(taskId)) return false;
      settled.set(taskId, s);
      return true;
    },
  };
  return { quotas, settled };
}

function setup(artifact: ReturnType<typeof fakeArtifact>, o: { failFirst?: boolean; probe?: (bytes: string) => ProbedVideo } = {}) {
  const catalogue = pricedCatalogue();
  const upstream = new FakeVideoModel({ plan: () => [{ state: 'succeeded', artifact }] });
  const ref: { engine?: ReturnType<typeof createFakeVideoEngine> } = {};
  const probed: string[] = [];
  const probe = o.probe && {
    probe: async (bytes: NodeJS.ReadableStream) => {
      const chunks: Buffer[] = [];
      for await (const c of bytes) chunks.push(Buffer.from(c as Buffer));
      probed.push(Buffer.concat(chunks).toString());
      return o.probe!(probed.at(-1)!);
    },
  };
  // the quota fake reads the engine's task store, made just below
  const fake = settlingQuotas(() => ref.engine!.tasks, catalogue, o);
  const e = (ref.engine = createFakeVideoEngine({ upstream, catalogue, billing: new Billing(fake.quotas), probe }));
  const create = (draft: { durationSeconds: number; resolution: string }) =>
    e.service.create({
      principal: ALPHA,
      modelId: 'sim-video-2.0',
      draft: { prompt: 'a fox', aspectRatio: '16:9', ...draft },
      format: 'test',
      requestId: 'r',
    });
  /** submit, then the poll that delivers */
  const run = async () => {
    const w = e.worker();
    await runWorkerOnce(w);
    e.clock.advance(5000);
    await runWorkerOnce(w);
    return w;
  };
  return { e, create, run, settled: fake.settled, probed };
}

describe('billing on what was delivered, through the worker', () => {
  it('delivered shorter than asked: the charge settles on the delivered seconds, the difference goes back', async () => {
    const s = setup(fakeArtifact({ width: 1280, height: 720, durationSeconds: 6.04 }));
    const { task } = await s.create({ durationSeconds: 10, resolution: '720p' });
    await s.run();
    expect((await s.e.tasks.findById(task.id))!.delivery).toMatchObject({ durationSeconds: 6, resolution: '720p' });
    expect(s.settled.get(task.id)).toEqual({
      reserved: 20,
      charge: 12,
      usage: expect.objectContaining({
        requestId: `settle_${task.id}`,
        taskId: task.id,
        status: 'succeeded',
        credits: -8,
        video: { requested: { seconds: 10, resolution: '720p' }, delivered: { seconds: 6, resolution: '720p' } },
      }),
    });
  });

  it('delivered as asked: settled with no refund, the row still shows both', async () => {
    const s = setup(fakeArtifact({ width: 1280, height: 720, durationSeconds: 10 }));
    const { task } = await s.create({ durationSeconds: 10, resolution: '720p' });
    await s.run();
    expect(s.settled.get(task.id)).toMatchObject({
      reserved: 20,
      charge: 20,
      usage: { credits: 0, video: { requested: { seconds: 10, resolution: '720p' }, delivered: { seconds: 10, resolution: '720p' } } },
    });
  });

  it("delivered at a lower resolution: charged at that resolution's price", async () => {
    const s = setup(fakeArtifact({ width: 854, height: 480, durationSeconds: 8 }));
    const { task } = await s.create({ durationSeconds: 8, resolution: '1080p' });
    await s.run();
    expect(s.settled.get(task.id)).toMatchObject({
      reserved: 24,
      charge: 8,
      usage: { credits: -16, video: { delivered: { resolution: '480p' } } },
    });
  });

  it('an upstream that does not state the shape: the stored file is probed, and its numbers are charged', async () => {
    const s = setup(fakeArtifact({ stated: false, bytes: Buffer.from('three-second-clip') }), {
      probe: () => ({ width: 1280, height: 720, durationSeconds: 3.01, fps: 24 }),
    });
    const { task } = await s.create({ durationSeconds: 5, resolution: '720p' });
    await s.run();
    expect(s.probed).toEqual(['three-second-clip']); // the bytes as stored
    expect((await s.e.tasks.findById(task.id))!.delivery).toMatchObject({ durationSeconds: 3, width: 1280, height: 720 });
    expect(s.settled.get(task.id)).toMatchObject({ reserved: 10, charge: 6 });
  });

  it('a settlement that failed right after success is made by the next housekeeping sweep, once', async () => {
    const s = setup(fakeArtifact({ width: 1280, height: 720, durationSeconds: 4 }), { failFirst: true });
    const { task } = await s.create({ durationSeconds: 8, resolution: '720p' });
    const w = await s.run();
    expect((await s.e.tasks.findById(task.id))!.status).toBe('succeeded');
    expect(s.settled.has(task.id)).toBe(false);
    s.e.clock.advance(5000);
    await runWorkerOnce(w); // housekeeping
    expect(s.settled.get(task.id)).toMatchObject({ reserved: 16, charge: 8 });
    s.e.clock.advance(5000);
    await runWorkerOnce(w);
    expect(s.settled.size).toBe(1);
  });
});
