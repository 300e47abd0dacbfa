import { ALPHA, FakeVideoModel, InMemoryContentStore, InMemoryTaskRepository, MemoryUsageLog, moveTask } from '@gateway/testkit';
import { ModelCatalogue } from '../catalogue';
import type { QuotaRepository } from '../ports/quota-repository.port';
import { Billing } from './billing';
import { VideoTasks } from './video-tasks';

/** A quota store that records which calls the use case makes. */
function recordingQuotas(calls: string[]): QuotaRepository {
  return {
    get: async (accountId) => ({ accountId, limit: null, used: 0, period: null }),
    setLimit: async (accountId, limit) => ({ accountId, limit, used: 0, period: null }),
    getKey: async (keyId) => ({ keyId, limit: null, used: 0, period: null }),
    setKeyLimit: async (keyId, limit, period) => ({ keyId, limit, used: 0, period }),
    charge: async () => void calls.push('charge'),
    reserve: async () => (calls.push('reserve'), true),
    chargeTask: async () => (calls.push('chargeTask'), true),
    unbilledTasks: async () => [],
    tasksWithoutUsageRow: async () => [],
    refundTask: async (taskId) => (calls.push(`refundTask:${taskId}`), null),
    refundUnsuccessfulTasks: async () => (calls.push('sweep'), []),
    unsettledTasks: async () => [],
    settleTask: async () => false,
  };
}

function setup() {
  const calls: string[] = [];
  const usage = new MemoryUsageLog();
  const tasks = new InMemoryTaskRepository({ usage });
  const catalogue = new ModelCatalogue(
    [
      {
        id: 'v',
        kind: 'video',
        family: '2.0',
        tier: 'standard',
        deployments: [{ provider: 'sim', upstreamModel: 'up', priority: 0, weight: 1 }],
      },
    ],
    [{ name: 'default', models: ['*'] }],
  );
  const upstream = new FakeVideoModel();
  const service = new VideoTasks({
    catalogue,
    tasks,
    content: new InMemoryContentStore(),
    usage,
    providers: { video: () => upstream },
    limits: { maxActiveTasksPerAccount: 5 },
    billing: new Billing(recordingQuotas(calls)),
  });
  const create = () => service.create({ principal: ALPHA, modelId: 'v', draft: { prompt: 'a fox' }, format: 'test', requestId: 'r' });
  return { calls, tasks, service, create };
}

describe("the refund sweep is worker housekeeping, not part of a user's DELETE", () => {
  it('cancelling a queued task sweeps nothing', async () => {
    const s = setup();
    const { task } = await s.create();
    expect((await s.service.cancelOrDelete(ALPHA, task.id)).outcome).toBe('cancelled');
    expect(s.calls.filter((c) => c === 'sweep' || c.startsWith('refundTask'))).toEqual([]);
  });

  it('deleting a finished task refunds that task alone before the record goes', async () => {
    const s = setup();
    const { task } = await s.create();
    await moveTask(s.tasks, task.id, 'queued', 'failed', { error: { code: 'x', message: 'x' } });
    expect((await s.service.cancelOrDelete(ALPHA, task.id)).outcome).toBe('deleted');
    expect(s.calls).toEqual([`refundTask:${task.id}`]);
  });
});
