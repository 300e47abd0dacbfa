import {
  ModelCatalogue,
  VideoTasks,
  VideoWorker,
  type Billing,
  type ModelSpec,
  type Principal,
  type VideoProbe,
  type VideoWorkerOptions,
} from '@gateway/core';
import { FakeVideoModel } from './fake-video-model';
import { InMemoryContentStore } from './in-memory-content-store';
import { InMemoryTaskRepository } from './in-memory-task-repository';
import { ManualClock } from './manual-clock';
import { MemoryUsageLog } from './memory-usage-log';

const video = (id: string, family: '2.5' | '2.0', tier: 'standard' | 'fast' | 'mini'): ModelSpec => ({
  id,
  kind: 'video',
  family,
  tier,
  deployments: [{ provider: 'sim', upstreamModel: `up-${id}`, priority: 0, weight: 1 }],
});

/** The test gateway's catalogue in miniature: group default sees a few models, vip sees all. */
export function fakeVideoCatalogue(): ModelCatalogue {
  return new ModelCatalogue(
    [
      { id: 'sim-chat', kind: 'text', deployments: [{ provider: 'sim', upstreamModel: 'sim-chat', priority: 0, weight: 1 }] },
      video('sim-video-2.5', '2.5', 'standard'),
      video('sim-video-2.0', '2.0', 'standard'),
      video('sim-video-2.0-fast', '2.0', 'fast'),
    ],
    [
      { name: 'default', models: ['sim-chat', 'sim-video-2.0', 'sim-video-2.0-fast'] },
      { name: 'vip', models: ['*'] },
    ],
  );
}

export const ALPHA: Principal = Object.freeze({ accountId: 'alpha', keyId: 'key-alpha', group: 'default' });
export const BETA: Principal = Object.freeze({ accountId: 'beta', keyId: 'key-beta', group: 'vip' });

/**
 * The video service and worker over in-memory fakes and a manual clock. `worker(owner)` makes another
 * worker on the same store, as a second gateway process would be.
 */
export function createFakeVideoEngine(
  opts: {
    maxActive?: number;
    upstream?: FakeVideoModel;
    clock?: ManualClock;
    /** quotas: reservation at admission, refunds and delivery settlements in the worker */
    billing?: Billing;
    probe?: VideoProbe;
    catalogue?: ModelCatalogue;
  } = {},
) {
  const clock = opts.clock ?? new ManualClock();
  const usage = new MemoryUsageLog();
  const tasks = new InMemoryTaskRepository({ now: clock.now, usage });
  const content = new InMemoryContentStore(clock.now);
  const upstream = opts.upstream ?? new FakeVideoModel();
  const providers = { video: (id: string) => (id === 'sim' ? upstream : undefined) };
  const catalogue = opts.catalogue ?? fakeVideoCatalogue();
  const service = new VideoTasks({
    catalogue,
    tasks,
    content,
    usage,
    providers,
    limits: { maxActiveTasksPerAccount: opts.maxActive ?? 20 },
    now: clock.now,
    billing: opts.billing,
  });
  const worker = (owner = 'worker-a', options: Partial<VideoWorkerOptions> = {}) =>
    new VideoWorker(
      { tasks, content, catalogue, providers, now: clock.now, billing: opts.billing, probe: opts.probe },
      { owner, leaseMs: 30_000, pollMinMs: 500, pollMaxMs: 2000, ...options },
    );
  return { clock, tasks, content, usage, upstream, providers, catalogue, service, worker };
}
