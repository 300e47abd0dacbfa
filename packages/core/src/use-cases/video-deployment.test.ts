import { ALPHA, FakeVideoModel, InMemoryContentStore, InMemoryTaskRepository, ManualClock, MemoryUsageLog } from '@gateway/testkit';
import { ModelCatalogue, type ModelSpec } from '../catalogue';
import { VideoTasks } from './video-tasks';
import { VideoWorker } from './video-worker';

const model = (provider: string): ModelSpec => ({
  id: 'v',
  kind: 'video',
  family: '2.0',
  tier: 'standard',
  deployments: [{ provider, upstreamModel: `up-${provider}`, priority: 0, weight: 1 }],
});

function setup() {
  const clock = new ManualClock();
  const usage = new MemoryUsageLog();
  const tasks = new InMemoryTaskRepository({ now: clock.now, usage });
  const content = new InMemoryContentStore(clock.now);
  const upstreams: Record<string, FakeVideoModel> = { a: new FakeVideoModel(), b: new FakeVideoModel() };
  const providers = { video: (id: string) => upstreams[id] };
  const catalogue = new ModelCatalogue([model('a')], [{ name: 'default', models: ['*'] }]);
  const service = new VideoTasks({ catalogue, tasks, content, usage, providers, limits: { maxActiveTasksPerAccount: 5 }, now: clock.now });
  const worker = new VideoWorker({ tasks, content, catalogue, providers, now: clock.now }, { owner: 'w', pollMinMs: 500, pollMaxMs: 2000 });
  return { tasks, upstreams, catalogue, service, worker };
}

const create = (s: ReturnType<typeof setup>) =>
  s.service.create({ principal: ALPHA, modelId: 'v', draft: { prompt: 'a fox' }, format: 'test', requestId: 'r1' });

describe('the video deployment is chosen once, at admission', () => {
  it('stores the chosen deployment on the task', async () => {
    const s = setup();
    const { task } = await create(s);
    expect(task.deployment).toEqual({ provider: 'a', upstreamModel: 'up-a' });
  });

  it('a config change between admission and submit does not move the task to another upstream', async () => {
    const s = setup();
    const { task } = await create(s);
    s.catalogue.replace([model('b')], [{ name: 'default', models: ['*'] }]);
    await s.worker.runOnce();
    expect(s.upstreams.a!.startCalls).toEqual([task.id]);
    expect(s.upstreams.a!.startRequests[0]).toMatchObject({ upstreamModel: 'up-a' });
    expect(s.upstreams.b!.startCalls).toEqual([]);
    expect((await s.tasks.findById(task.id))?.upstream?.provider).toBe('a');
  });

  it('a task admitted before deployments were stored resolves at submit, as before', async () => {
    const s = setup();
    const { task } = await create(s);
    const legacy = { ...task, id: 'tasklegacy', deployment: null, idempotencyKey: null };
    await s.tasks.create(legacy);
    await s.tasks.transition(task.id, 'queued', 'cancelled');
    s.catalogue.replace([model('b')], [{ name: 'default', models: ['*'] }]);
    await s.worker.runOnce();
    expect(s.upstreams.b!.startCalls).toEqual(['tasklegacy']);
  });

  it('the stored provider gone from the config fails the task instead of moving it', async () => {
    const s = setup();
    const { task } = await create(s);
    delete s.upstreams.a;
    await s.worker.runOnce();
    expect(s.upstreams.b!.startCalls).toEqual([]);
    expect(await s.tasks.findById(task.id)).toMatchObject({ status: 'failed', error: { code: 'upstream_unavailable' } });
  });
});
