import { moveTask } from '@gateway/testkit';
import { KnexKeyRepository } from './knex-key-repository';
import { KnexQuotaRepository } from './knex-quota-repository';
import { KnexTaskRepository } from './knex-task-repository';
import { describeOnTestDatabases } from '../test/test-databases';
import { videoTask } from '../test/video-task';

const task = (id: string, over: Parameters<typeof videoTask>[1] = {}) => videoTask(id, { accountId: 'acme', ...over });

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

    const newTask = (id: string) => tasks.create(task(id));

    it('starts unlimited and unused; limits and charges add up', async () => {
      expect(await quotas.get('acme')).toEqual({ accountId: 'acme', limit: null, used: 0, period: null });
      await quotas.setLimit('acme', 100);
      await quotas.charge({ accountId: 'acme' }, 12.5, 'text', { requestId: 'r1' });
      await quotas.charge({ accountId: 'acme' }, 0.25, 'text', { requestId: 'r2' });
      expect(await quotas.get('acme')).toEqual({ accountId: 'acme', limit: 100, used: 12.75, period: null });
    });

    it('charges a task once, and refunds it once when it fails, even with concurrent refunders', async () => {
      await newTask('taskquota1');
      const before = (await quotas.get('acme')).used;
      const charged = await Promise.all([quotas.chargeTask('taskquota1', 'acme', 50), quotas.chargeTask('taskquota1', 'acme', 50)]);
      expect(charged.filter(Boolean)).toHaveLength(1);
      expect((await quotas.get('acme')).used).toBe(before + 50);
      // still queued: nothing to refund
      expect(await quotas.refundUnsuccessfulTasks(10)).toEqual([]);
      await moveTask(tasks, 'taskquota1', 'queued', 'failed', { error: { code: 'x', message: 'failed' } });
      const sweeps = await Promise.all(Array.from({ length: 6 }, () => quotas.refundUnsuccessfulTasks(10)));
      expect(sweeps.flat()).toEqual([{ taskId: 'taskquota1', accountId: 'acme', amount: 50 }]);
      expect((await quotas.get('acme')).used).toBe(before);
      const ledger = await db.knex('credit_ledger').where({ task_id: 'taskquota1' }).orderBy('id');
      expect(ledger.map((r: { amount: string }) => Number(r.amount))).toEqual([50, -50]);
    });

    it('never refunds a task that succeeded', async () => {
      await newTask('taskquota2');
      await quotas.chargeTask('taskquota2', 'acme', 20);
      await moveTask(tasks, 'taskquota2', 'queued', 'running');
      await moveTask(tasks, 'taskquota2', 'running', 'succeeded');
      expect(await quotas.refundUnsuccessfulTasks(10)).toEqual([]);
    });
  });

  describe(`delivery settlement on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    let quotas: KnexQuotaRepository;
    let tasks: KnexTaskRepository;
    let keyId: string;
    beforeAll(async () => {
      db = await target.open();
      quotas = new KnexQuotaRepository(db.knex);
      tasks = new KnexTaskRepository(db.knex);
      const keys = new KnexKeyRepository(db.knex);
      await keys.createAccount('acme');
      keyId = (await keys.createKey({ accountId: 'acme', group: 'default', hash: 'cd'.repeat(32), prefix: 'sk-sett' })).id;
      await quotas.setKeyLimit(keyId, 1000, null);
    });
    afterAll(async () => db.drop());

    const delivered = async (id: string, reserved: number, seconds: number) => {
      await tasks.create(task(id, { keyId, request: { durationSeconds: 10 } }));
      if (reserved > 0) await quotas.chargeTask(id, 'acme', reserved);
      await moveTask(tasks, id, 'queued', 'running');
      const delivery = {
        resolution: '720p',
        ratio: '16:9',
        durationSeconds: seconds,
        fps: 24,
        width: 1280,
        height: 720,
        contentKey: 'c',
        bytes: 1,
      } as const;
      await moveTask(tasks, id, 'running', 'succeeded', { delivery });
    };
    const usage = (id: string, credits: number) => ({
      requestId: `settle_${id}`,
      accountId: 'acme',
      keyId,
      model: 'm',
      format: 'f',
      status: 'succeeded',
      httpStatus: 200,
      taskId: id,
      credits,
      video: { requested: { seconds: 10, resolution: '720p' }, delivered: { seconds: 4, resolution: '720p' } },
    });

    it('lists succeeded tasks owed a settlement with what was reserved, and settles each once, giving the difference back', async () => {
      await delivered('settle1', 50, 4);
      const used = (await quotas.get('acme')).used;
      const keyUsed = (await quotas.getKey(keyId)).used;
      expect((await quotas.unsettledTasks(10, 'settle1')).map((u) => [u.task.id, u.reserved])).toEqual([['settle1', 50]]);
      const write = { reserved: 50, charge: 20, usage: usage('settle1', -30) };
      const wins = await Promise.all(Array.from({ length: 4 }, () => quotas.settleTask('settle1', write)));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await quotas.get('acme')).used).toBe(used - 30);
      expect((await quotas.getKey(keyId)).used).toBe(keyUsed - 30);
      expect(await quotas.unsettledTasks(10, 'settle1')).toEqual([]);
      const row = await db.knex('video_tasks').where({ id: 'settle1' }).first();
      expect({ state: row.billing_state, billed: Number(row.billed_credits) }).toEqual({ state: 'settled', billed: 20 });
      const ledger = await db.knex('credit_ledger').where({ task_id: 'settle1' }).orderBy('id');
      expect(ledger.map((r: { amount: string }) => Number(r.amount))).toEqual([50, -30]);
      const rows = await db.knex('usage_log').where({ task_id: 'settle1' });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'succeeded', video_requested_resolution: '720p', video_delivered_resolution: '720p' });
      expect([Number(rows[0].video_requested_seconds), Number(rows[0].video_delivered_seconds), Number(rows[0].credits)]).toEqual([
        10, 4, -30,
      ]);
    });

    it('a settlement weighed against a stale reservation writes nothing; a free task settles with no ledger row', async () => {
      await delivered('settle2', 40, 10);
      expect(await quotas.settleTask('settle2', { reserved: 99, charge: 10, usage: usage('settle2', -89) })).toBe(false);
      expect(await db.knex('usage_log').where({ task_id: 'settle2' })).toHaveLength(0);
      await delivered('settle3', 0, 4);
      expect((await quotas.unsettledTasks(10, 'settle3')).map((u) => u.reserved)).toEqual([0]);
      expect(await quotas.settleTask('settle3', { reserved: 0, charge: 0, usage: usage('settle3', 0) })).toBe(true);
      expect(await db.knex('credit_ledger').where({ task_id: 'settle3' })).toHaveLength(0);
      // not succeeded: never listed, never settled
      await tasks.create(task('settle4', { keyId }));
      expect(await quotas.unsettledTasks(10, 'settle4')).toEqual([]);
      expect(await quotas.settleTask('settle4', { reserved: 0, charge: 0, usage: usage('settle4', 0) })).toBe(false);
    });
  });

  describe(`credit budgets with periods on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    let now = new Date('2030-05-31T23:00:00Z');
    let quotas: KnexQuotaRepository;
    let keyId: string;
    beforeAll(async () => {
      db = await target.open();
      quotas = new KnexQuotaRepository(db.knex, { now: () => now });
      const keys = new KnexKeyRepository(db.knex);
      await keys.createAccount('acme');
      keyId = (await keys.createKey({ accountId: 'acme', group: 'default', hash: 'ab'.repeat(32), prefix: 'sk-budg' })).id;
    });
    afterAll(async () => db.drop());
    const payer = () => ({ accountId: 'acme', keyId });

    it('a daily key budget refuses past its limit and starts again at midnight UTC', async () => {
      expect(await quotas.getKey(keyId)).toEqual({ keyId, limit: null, used: 0, period: null });
      await quotas.setKeyLimit(keyId, 10, 'daily');
      expect(await quotas.reserve(payer(), 8, 'images', {})).toBe(true);
      expect(await quotas.reserve(payer(), 3, 'images', {})).toBe(false);
      // refused by the key: the account's share was rolled back with it
      expect((await quotas.get('acme')).used).toBe(8);
      expect(await quotas.getKey(keyId)).toEqual({ keyId, limit: 10, used: 8, period: 'daily' });
      now = new Date('2030-06-01T00:00:00Z');
      expect((await quotas.getKey(keyId)).used).toBe(0);
      expect(await quotas.reserve(payer(), 10, 'images', {})).toBe(true);
      expect(await quotas.reserve(payer(), 0.5, 'images', {})).toBe(false);
      // the account's quota has no period: it keeps counting
      expect((await quotas.get('acme')).used).toBe(18);
    });

    it('a monthly account quota resets on the first of the month; parallel takers never pass it', async () => {
      now = new Date('2030-06-30T12:00:00Z');
      await quotas.setKeyLimit(keyId, null, null);
      await quotas.setLimit('acme', 5, 'monthly');
      // a lifetime count is no period's: the first period starts from zero
      expect((await quotas.get('acme')).used).toBe(0);
      now = new Date('2030-07-01T00:00:00Z');
      expect(await quotas.get('acme')).toEqual({ accountId: 'acme', limit: 5, used: 0, period: 'monthly' });
      const taken = await Promise.all(Array.from({ length: 8 }, () => quotas.reserve(payer(), 1, 'images', {})));
      expect(taken.filter(Boolean)).toHaveLength(5);
      expect((await quotas.get('acme')).used).toBe(5);
      // a refund gives back within the period and never goes below zero
      await quotas.charge(payer(), -2, 'images refund', {});
      expect((await quotas.get('acme')).used).toBe(3);
      now = new Date('2030-08-01T00:00:00Z');
      await quotas.charge(payer(), -2, 'late refund', {});
      expect((await quotas.get('acme')).used).toBe(0);
    });
  });
});
