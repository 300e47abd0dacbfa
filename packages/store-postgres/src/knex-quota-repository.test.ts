import { KnexKeyRepository } from './knex-key-repository';
import { KnexQuotaRepository } from './knex-quota-repository';
import { KnexTaskRepository } from './knex-task-repository';
import { describeOnTestDatabases } from '../test/test-databases';

const request = {
  model: 'm',
  prompt: 'p',
  durationSeconds: 5,
  resolution: '720p',
  aspectRatio: 'adaptive',
  generateAudio: true,
  fps: 24,
} as const;

describeOnTestDatabases((target) => {
  describe(`KnexQuotaRepository on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    let quotas: KnexQuotaRepository;
    let tasks: KnexTaskRepository;
    beforeAll(async () => {
      db = await target.open();
      quotas = new KnexQuotaRepository(db.knex);
      tasks = new KnexTaskRepository(db.knex);
      await new KnexKeyRepository(db.knex).createAccount('acme');
    });
    afterAll(async () => db.drop());

    const newTask = (id: string) =>
      tasks.create({
        id,
        accountId: 'acme',
        keyId: 'k',
        model: 'm',
        format: 'f',
        request: { ...request },
        priority: 0,
        serviceTier: 'default',
        executionExpiresAfter: 3600,
        idempotencyKey: null,
      });

    it('starts unlimited and unused; limits and charges add up', async () => {
      expect(await quotas.get('acme')).toEqual({ accountId: 'acme', limit: null, used: 0 });
      await quotas.setLimit('acme', 100);
      await quotas.charge('acme', 12.5, 'text', { requestId: 'r1' });
      await quotas.charge('acme', 0.25, 'text', { requestId: 'r2' });
      expect(await quotas.get('acme')).toEqual({ accountId: 'acme', limit: 100, used: 12.75 });
    });

    it('charges a task once, and refunds it once when it fails, even with concurrent refunders', async () => {
      await newTask('taskquota1');
      const before = (await quotas.get('acme')).used;
      const charged = await Promise.all([quotas.chargeTask('taskquota1', 'acme', 50), quotas.chargeTask('taskquota1', 'acme', 50)]);
      expect(charged.filter(Boolean)).toHaveLength(1);
      expect((await quotas.get('acme')).used).toBe(before + 50);
      // still queued: nothing to refund
      expect(await quotas.refundUnsuccessfulTasks(10)).toEqual([]);
      await tasks.transition('taskquota1', 'queued', 'failed', { error: { code: 'x', message: 'failed' } });
      const sweeps = await Promise.all(Array.from({ length: 6 }, () => quotas.refundUnsuccessfulTasks(10)));
      expect(sweeps.flat()).toEqual([{ taskId: 'taskquota1', accountId: 'acme', amount: 50 }]);
      expect((await quotas.get('acme')).used).toBe(before);
      const ledger = await db.knex('credit_ledger').where({ task_id: 'taskquota1' }).orderBy('id');
      expect(ledger.map((r: { amount: string }) => Number(r.amount))).toEqual([50, -50]);
    });

    it('never refunds a task that succeeded', async () => {
      await newTask('taskquota2');
      await quotas.chargeTask('taskquota2', 'acme', 20);
      await tasks.transition('taskquota2', 'queued', 'running');
      await tasks.transition('taskquota2', 'running', 'succeeded');
      expect(await quotas.refundUnsuccessfulTasks(10)).toEqual([]);
    });
  });
});
